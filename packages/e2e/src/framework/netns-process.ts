/**
 * Long-running processes inside a network namespace (`ip netns exec NS node ...`) and one-shot
 * runs of the inline scripts. `ip netns exec` execs in place, so the child's pid is node's own and
 * stopping it by pid stops the real process.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** A process started in a namespace, with its output collected. */
export interface NetnsProcess {
  readonly name: string;
  readonly pid: number;
  output(): string;
  /** Resolves once the output matches `re`; rejects when the process exits or `timeoutMs` passes. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<string>;
}

/** Starts `node ...args` in namespace `ns`. */
export function startInNetns(ns: string, name: string, args: readonly string[]): NetnsProcess {
  const child: ChildProcess = spawn("ip", ["netns", "exec", ns, process.execPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<string>((resolve) => child.once("exit", (code, sig) => resolve(sig ?? String(code))));
  return {
    name,
    pid: child.pid ?? -1,
    output: () => out,
    waitFor: async (re, timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!re.test(out)) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`${name}: no ${re} in ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    stop: async (graceMs = 5000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.signalCode ?? String(child.exitCode);
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const r = await exited;
      clearTimeout(t);
      return r;
    },
  };
}

/** Runs `node -e script arg` in `ns` to completion and returns its stdout (throws on failure). */
export function runScriptInNetns(ns: string, script: string, arg: string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("ip", ["netns", "exec", ns, process.execPath, "-e", script, arg], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const t = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(t);
      if (code === 0) resolve(out);
      else reject(new Error(`script in ${ns} exited ${code}: ${err.trim()}`));
    });
  });
}

/** Runs a command (not node) in `ns` and returns its stdout; rejects on a non-zero exit. */
export function execInNetns(ns: string, argv: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("ip", ["netns", "exec", ns, ...argv], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${argv.join(" ")} in ${ns} exited ${code}: ${err.trim()}`)),
    );
  });
}
