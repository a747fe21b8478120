import { describe, expect, it } from "vitest";
import { V, jsonLogger, noopLogger, parseVerbosity, textLogger } from "./logger.ts";

describe("V", () => {
  const capture = (verbosity?: number) => {
    const lines: { level: string; msg: string }[] = [];
    const log = jsonLogger("test", {
      ...(verbosity !== undefined ? { verbosity } : {}),
      write: (l) => lines.push(JSON.parse(l) as { level: string; msg: string }),
    });
    return { log, lines };
  };

  it.each([
    [undefined, 0, true],
    [undefined, 1, false],
    [2, 2, true],
    [2, 3, false],
    [4, 0, true],
  ])("verbosity %s writes V(%i) info lines: %s", (verbosity, level, written) => {
    const { log, lines } = capture(verbosity);
    V(log, level).info("hello", { k: 1 });
    expect(lines.length).toBe(written ? 1 : 0);
  });

  it("always writes errors, whatever the level", () => {
    const { log, lines } = capture(0);
    V(log, 5).error("bad");
    expect(lines).toEqual([expect.objectContaining({ level: "error", msg: "bad", component: "test" })]);
  });

  it("treats a logger without verbosity as -v=0", () => {
    expect(V(noopLogger, 0)).toBe(noopLogger);
    expect(V(noopLogger, 1)).not.toBe(noopLogger);
  });
});

describe("parseVerbosity", () => {
  it.each([
    ["0", 0],
    ["4", 4],
    ["10", 10],
  ])("%s", (s, n) => expect(parseVerbosity(s)).toBe(n));
  it.each(["", "-1", "x", "1.5", "99999999999"])("%j is invalid", (s) => expect(() => parseVerbosity(s)).toThrow(/invalid argument/));
});

describe("textLogger", () => {
  it("writes klog's key=value pairs, strings quoted", () => {
    const lines: string[] = [];
    const log = textLogger((l) => lines.push(l));
    log.error("list/watch failed, retrying", { reflector: "/api/v1/pods", backoffMs: 800, err: new Error("boom") });
    V(log, 2).info("dropped");
    expect(lines).toEqual(['list/watch failed, retrying reflector="/api/v1/pods" backoffMs=800 err="boom"']);
  });
});
