/**
 * The real processes of the controller suites, started one by one (not through scripts/up.mjs) so
 * a test can SIGKILL and restart the controller-manager, or run two of them: the apiserver
 * (`servicenet-up.js` on SQLite in a throw-away directory) and `controller-manager.js --kubeconfig`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const apiserverBin = path.join(root, "packages/apiserver/dist/cmd/servicenet-up.js");
const controllerManagerBin = path.join(root, "packages/controller-manager/dist/cmd/controller-manager.js");

/** One child process with its output as timestamped lines (stdout and stderr together). */
export interface Proc {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Lines so far, `at` = Date.now() when the line arrived. */
  readonly lines: { at: number; text: string }[];
  /** Resolves with the arrival time of the first line (from `fromLine`) matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number, fromLine?: number): Promise<number>;
  count(re: RegExp): number;
  /** Sends `signal` and resolves with the exit code (null if killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function startProc(args: readonly string[], cwd: string): Proc {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const lines: { at: number; text: string }[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  for (const stream of [child.stdout, child.stderr]) {
    let buf = "";
    stream.on("data", (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        lines.push({ at: Date.now(), text: buf.slice(0, i) });
        buf = buf.slice(i + 1);
      }
    });
  }
  const find = (re: RegExp, from: number) => lines.slice(from).find((l) => re.test(l.text));
  return {
    child,
    pid: child.pid!,
    lines,
    count: (re) => lines.filter((l) => re.test(l.text)).length,
    async waitFor(re, timeoutMs = 20_000, fromLine = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = find(re, fromLine);
        if (hit !== undefined) return hit.at;
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${tail(lines)}`);
        if (Date.now() > deadline) throw new Error(`no ${re} in ${timeoutMs} ms:\n${tail(lines)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function tail(lines: readonly { text: string }[]): string {
  return lines.slice(-30).map((l) => l.text).join("\n");
}

/** The apiserver process on SQLite with its kubeconfig. */
export interface ApiServerProc extends Proc {
  readonly dir: string;
  readonly kubeconfigPath: string;
  readonly kubeConfig: KubeConfig;
  /** Stops the apiserver and removes its directory. */
  close(): Promise<void>;
}

/** Starts `servicenet up --port 0 --data-dir <tmp>` (dual-stack v4v6) and waits for its ready line. */
export async function startApiServerProcess(): Promise<ApiServerProc> {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-e2e-cm-"));
  const p = startProc([apiserverBin, "--port", "0", "--data-dir", path.join(dir, "state")], dir);
  try {
    await p.waitFor(/^servicenet ready/, 30_000);
  } catch (err) {
    await p.stop("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const kubeconfigPath = path.join(dir, "state", "kubeconfig");
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  return {
    ...p,
    dir,
    kubeconfigPath,
    kubeConfig,
    async close() {
      await p.stop("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a controller-manager process against `kubeconfigPath` with extra flags. */
export function startControllerManager(kubeconfigPath: string, flags: readonly string[] = []): Proc {
  return startProc([controllerManagerBin, "--kubeconfig", kubeconfigPath, ...flags], path.dirname(kubeconfigPath));
}

/** The leader-election identity a controller-manager process uses (`<hostname>_<pid>`). */
export function identityOf(p: Proc): string {
  return `${hostname()}_${p.pid}`;
}

/** Resolves once the endpointslice and endpoint controllers of `p` report synced caches (from `fromLine`). */
export async function waitSynced(p: Proc, fromLine = 0, timeoutMs = 30_000): Promise<number> {
  const a = await p.waitFor(/"msg":"Caches are synced","controller":"endpointslice"}/, timeoutMs, fromLine);
  const b = await p.waitFor(/"msg":"Caches are synced","controller":"endpoint"}/, timeoutMs, fromLine);
  return Math.max(a, b);
}
