import { describe, expect, it } from "vitest";
import { namedCheck, serveHealth } from "./healthz.ts";

describe("serveHealth (upstream healthz_test.go)", () => {
  const bad = namedCheck("bad", () => {
    throw new Error("this will fail");
  });
  const good = namedCheck("good", () => {});

  it.each([
    // [path, query, code, body]
    ["/healthz", "", 200, "ok"],
    ["/healthz", "verbose", 200, "[+]ping ok\nhealthz check passed\n"],
    ["/healthz/ping", "", 200, "ok"],
  ])("a root without checks serves ping alone: %s?%s", async (path, query, code, body) => {
    expect(await serveHealth({ healthz: [] }, path, new URLSearchParams(query))).toEqual({ code, body });
  });

  it.each([
    ["/healthz", "verbose", 500, "[+]good ok\n[-]bad failed: reason withheld\nhealthz check failed\n"],
    ["/healthz", "exclude=bad", 200, "ok"],
    [
      "/healthz",
      "verbose&exclude=bad&exclude=nope",
      200,
      '[+]good ok\n[+]bad excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
    ],
    ["/healthz/bad", "", 500, "internal server error: this will fail\n"],
    ["/healthz/good", "", 200, "ok"],
  ])("%s?%s", async (path, query, code, body) => {
    expect(await serveHealth({ healthz: [good, bad] }, path, new URLSearchParams(query))).toEqual({ code, body });
  });

  it("does not answer a root the component does not serve, nor an unknown check", async () => {
    expect(await serveHealth({ healthz: [good] }, "/readyz", new URLSearchParams())).toBeUndefined();
    expect(await serveHealth({ healthz: [good] }, "/healthz/other", new URLSearchParams())).toBeUndefined();
  });
});
