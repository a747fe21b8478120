import { describe, expect, it } from "vitest";
import { defaultAdvertiseAddress } from "./run.ts";

describe("defaultAdvertiseAddress (upstream ResolveBindAddress)", () => {
  it("keeps a specific, non-loopback bind address", () => {
    expect(defaultAdvertiseAddress("192.0.2.7")).toBe("192.0.2.7");
    expect(defaultAdvertiseAddress("2001:db8::7")).toBe("2001:db8::7");
  });
  it.each(["127.0.0.1", "127.0.0.2", "::1", "0.0.0.0", "::", undefined])("replaces %s with a host interface, never loopback", (bind) => {
    const got = defaultAdvertiseAddress(bind);
    if (got !== undefined) expect(got).not.toMatch(/^(127\.|::1$|0\.0\.0\.0$|::$)/);
  });
});
