/**
 * The apiserver as users run it (`servicenet up`: HTTPS, bearer token, SQLite) in a child process,
 * so that a crash is visible as an exit (not a dead test worker) and its memory can be read from
 * /proc/<pid>/status. Shared by the fuzz and load suites.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { apiserverBin } from "../framework/bins.ts";

/** The built `servicenet up` entry point (run `npx nx run-many -t build` first). */
export const servicenetUp = apiserverBin;

export interface ChildApiServer {
  url: string;
  token: string;
  /** PEM CA certificate of the serving certificate. */
  ca: string;
  pid: number;
  dir: string;
  /** Everything the process printed so far. */
  output(): string;
  /** The exit code (or signal name) once the process has exited, else undefined. */
  exited(): number | string | undefined;
  /** Resident set size in KiB (VmRSS of /proc/<pid>/status). */
  rssKiB(): number;
  /** SIGINT, wait for exit, remove the data directory. */
  stop(): Promise<number | string | undefined>;
}

/** Reads VmRSS (KiB) of a Linux process. */
export function readRssKiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

/** Starts `servicenet up --port 0` in a fresh data directory; resolves on its ready line. */
export async function startChildApiServer(
  args: readonly string[] = [],
  timeoutMs = 20_000,
  nodeArgs: readonly string[] = [],
): Promise<ChildApiServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-e2e-child-"));
  const dataDir = path.join(dir, "data");
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, servicenetUp, "--port", "0", "--data-dir", dataDir, ...args], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let exit: number | string | undefined;
  child.stdout!.on("data", (d) => (out += d.toString()));
  child.stderr!.on("data", (d) => (out += d.toString()));
  const exitedP = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = code ?? signal ?? "unknown";
      resolve();
    }),
  );
  const deadline = Date.now() + timeoutMs;
  let url: string | undefined;
  while ((url = /apiserver (https:\/\/\S+)/.exec(out)?.[1]) === undefined) {
    if (exit !== undefined || Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`servicenet up ${exit !== undefined ? `exited ${exit}` : `not ready in ${timeoutMs} ms`}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  // The first token of the token file: `--token-auth-file`'s when given, else the generated one.
  const tokenFile = args[args.indexOf("--token-auth-file") + 1];
  const token = readFileSync(args.includes("--token-auth-file") && tokenFile ? tokenFile : path.join(dataDir, "tokens.csv"), "utf8").split(
    ",",
  )[0]!;
  const ca = readFileSync(path.join(dataDir, "pki", "ca.crt"), "utf8");
  const pid = child.pid!;
  return {
    url,
    token,
    ca,
    pid,
    dir,
    output: () => out,
    exited: () => exit,
    rssKiB: () => readRssKiB(pid),
    stop: async () => {
      if (exit === undefined) {
        child.kill("SIGINT");
        const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exitedP;
        clearTimeout(t);
      }
      rmSync(dir, { recursive: true, force: true });
      return exit;
    },
  };
}
