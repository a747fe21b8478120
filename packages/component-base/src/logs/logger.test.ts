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
  const capture = () => {
    const lines: string[] = [];
    return { log: textLogger((l) => lines.push(l)), lines };
  };

  it("writes klog's quoted message and key=value pairs, strings quoted", () => {
    const { log, lines } = capture();
    log.error("list/watch failed, retrying", { reflector: "/api/v1/pods", backoffMs: 800, err: new Error("boom") });
    V(log, 2).info("dropped");
    expect(lines).toEqual(['"list/watch failed, retrying" reflector="/api/v1/pods" backoffMs=800 err="boom"']);
  });

  // klog.go printS quotes the message even with line breaks; serialize.writeStringValue writes a
  // multi-line value between `<` and ` >`, its lines indented with a tab.
  it.each([
    { name: "no fields", msg: "test", fields: {}, want: '"test"' },
    { name: "quotes in the message", msg: 'say "hi"', fields: {}, want: '"say \\"hi\\""' },
    { name: "line break in the message", msg: "a\nb", fields: {}, want: '"a\\nb"' },
    { name: "bool and number", msg: "m", fields: { ok: true, n: 1.5 }, want: '"m" ok=true n=1.5' },
    { name: "object as JSON", msg: "m", fields: { podCIDRs: ["10.0.0.0/24"] }, want: '"m" podCIDRs=["10.0.0.0/24"]' },
    { name: "multi-line string", msg: "m", fields: { v: "a\nb" }, want: '"m" v=<\n\ta\n\tb\n >' },
    { name: "multi-line string with a final line break", msg: "m", fields: { v: "a\nb\n" }, want: '"m" v=<\n\ta\n\tb\n >' },
    { name: "control character in a value", msg: "m", fields: { v: "a\tb" }, want: '"m" v="a\\tb"' },
  ])("$name", ({ msg, fields, want }) => {
    const { log, lines } = capture();
    log.info(msg, fields);
    expect(lines).toEqual([want]);
  });
});
