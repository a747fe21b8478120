import { afterEach, describe, expect, it, vi } from "vitest";
import { UsageError } from "./flags.ts";
import { commonFlag, runCommand, type Command, type CommonOptions } from "./run.ts";

interface Opts extends CommonOptions {
  fail?: string;
}

function command(over: Partial<Command<Opts>> = {}): Command<Opts> {
  return {
    name: "test",
    usage: "Usage: test [flags]",
    parse: (argv) => {
      if (argv.includes("--bad")) throw new UsageError("unknown flag: --bad");
      return { help: argv.includes("--help"), verbosity: 0, ...(argv.includes("--fail") ? { fail: "boom" } : {}) };
    },
    run: (o) => (o.fail === undefined ? Promise.resolve(0) : Promise.reject(new Error(o.fail))),
    ...over,
  };
}

describe("runCommand", () => {
  const out: string[] = [];
  const err: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    out.length = 0;
    err.length = 0;
  });
  const capture = () => {
    vi.spyOn(process.stdout, "write").mockImplementation((s) => out.push(String(s)) > 0);
    vi.spyOn(process.stderr, "write").mockImplementation((s) => err.push(String(s)) > 0);
  };

  it("prints the usage after a usage error and exits 2", async () => {
    capture();
    expect(await runCommand(command({ usageErrorLabel: "Error" }), ["--bad"])).toBe(2);
    expect(err.join("")).toBe("Error: unknown flag: --bad\nUsage: test [flags]\n");
  });

  it("prints the usage for --help and exits 0 without running", async () => {
    capture();
    const run = vi.fn(() => Promise.resolve(3));
    expect(await runCommand(command({ run }), ["--help"])).toBe(0);
    expect(out.join("")).toBe("Usage: test [flags]\n");
    expect(run).not.toHaveBeenCalled();
  });

  it("exits with what run resolves, and leaves no signal handler behind", async () => {
    capture();
    const before = process.listenerCount("SIGTERM");
    expect(await runCommand(command({ run: () => Promise.resolve(7) }), [])).toBe(7);
    expect(process.listenerCount("SIGTERM")).toBe(before);
  });

  it("aborts run's signal on SIGTERM", async () => {
    capture();
    const code = runCommand(command({ run: (_o, _log, signal) => new Promise((r) => signal.addEventListener("abort", () => r(0))) }), []);
    await new Promise((r) => setImmediate(r));
    process.emit("SIGTERM", "SIGTERM");
    expect(await code).toBe(0);
  });

  it("prints a configuration error as one F line and a bug with its stack; exits 1", async () => {
    capture();
    const cmd = command({ fatalMessage: (e) => ((e as Error).message === "boom" ? "bad config" : undefined) });
    expect(await runCommand(cmd, ["--fail"])).toBe(1);
    expect(err.join("")).toBe("F bad config\n");
    err.length = 0;
    expect(await runCommand(command(), ["--fail"])).toBe(1);
    expect(err.join("")).toMatch(/^F Error: boom\n {4}at /);
  });
});

describe("commonFlag", () => {
  const flag = (name: string, v?: string) => ({ name, arg: name, inline: false, value: () => v ?? "" });
  it.each([
    { name: "-v", v: "4", want: { verbosity: 4, help: false } },
    { name: "--v", v: "2", want: { verbosity: 2, help: false } },
    { name: "-h", want: { verbosity: 0, help: true } },
    { name: "--help", want: { verbosity: 0, help: true } },
  ])("$name", ({ name, v, want }) => {
    const o = { verbosity: 0, help: false };
    expect(commonFlag(o, flag(name, v))).toBe(true);
    expect(o).toEqual(want);
  });

  it("leaves other flags to the component", () => {
    const o = { verbosity: 0, help: false };
    expect(commonFlag(o, flag("--kubeconfig", "x"))).toBe(false);
    expect(o).toEqual({ verbosity: 0, help: false });
  });

  it("makes a bad verbosity a usage error", () => {
    expect(() => commonFlag({ verbosity: 0, help: false }, flag("-v", "x"))).toThrow(UsageError);
  });
});
