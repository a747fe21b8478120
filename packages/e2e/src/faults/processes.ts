/**
 * The real processes the fault suites kill: `servicenet up` (the apiserver alone, the built
 * dist/cmd/servicenet-up.js), the controller-manager, and a private etcd. Each is a child process
 * with its output captured, a way to wait for a line, and kill/stop by its own pid only.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** A started child process with its combined output. */
export interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Resolves once the output (since start) matches `re`; rejects if the process exits first. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** Sends `signal` (default SIGKILL) and resolves when the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  alive(): boolean;
}

/** A throw-away directory under the OS temp dir. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `servicenet-${prefix}-`));
}

/** A TCP port that was free a moment ago on 127.0.0.1 (processes restart on the same port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

async function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** A free port whose successor is free too (etcd's client and peer ports). */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const p = await freePort();
    if (p < 65535 && (await canBind(p + 1))) return p;
  }
}

/** Spawns `cmd args` and captures its output. */
export function startProc(name: string, cmd: string, args: readonly string[], cwd?: string): Proc {
  const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d.toString()));
  child.stderr.on("data", (d) => (out += d.toString()));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    output: () => out,
    alive,
    waitFor: async (re, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!re.test(out)) {
        if (!alive()) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${out.slice(-4000)}`);
        if (Date.now() > deadline) throw new Error(`${name}: no ${re} in ${timeoutMs} ms:\n${out.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    kill: (signal = "SIGKILL") =>
      new Promise<void>((resolve) => {
        if (!alive()) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

/** Whether the built `servicenet up` knows `flag` (its --help lists it); for flags landing in parallel work. */
export function apiserverSupports(flag: string): boolean {
  const script = path.join(root, "packages/apiserver/dist/cmd/servicenet-up.js");
  return spawnSync(process.execPath, [script, "--help"], { encoding: "utf8" }).stdout.includes(flag);
}

/** `servicenet up` alone (no controller-manager, no kube-proxy), in `dataDir`, on `port`. */
export async function startApiserverProc(o: { dataDir: string; port: number; args?: readonly string[] }): Promise<Proc & { kubeconfigPath: string }> {
  const script = path.join(root, "packages/apiserver/dist/cmd/servicenet-up.js");
  const p = startProc("apiserver", process.execPath, [script, "--port", String(o.port), "--data-dir", o.dataDir, ...(o.args ?? [])]);
  await p.waitFor(/servicenet ready/, 30_000);
  return Object.assign(p, { kubeconfigPath: path.join(o.dataDir, "kubeconfig") });
}

/** The controller-manager for a kubeconfig; resolves once its EndpointSlice caches are synced. */
export async function startControllerManagerProc(kubeconfigPath: string): Promise<Proc> {
  const script = path.join(root, "packages/controller-manager/dist/cmd/controller-manager.js");
  const p = startProc("controller-manager", process.execPath, [script, "--kubeconfig", kubeconfigPath]);
  await p.waitFor(/Caches are synced.*endpointslice/, 30_000);
  return p;
}

/** The `etcd` binary on PATH, if any (the etcd-restart suite skips without it). */
export function etcdBinary(): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(":")) {
    const f = path.join(dir, "etcd");
    try {
      accessSync(f, constants.X_OK);
      return f;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** A private single-member etcd on loopback: `port` for clients, `port + 1` for peers. */
export async function startEtcdProc(o: { bin: string; dataDir: string; port: number }): Promise<Proc & { endpoint: string }> {
  const client = `http://127.0.0.1:${o.port}`;
  const peer = `http://127.0.0.1:${o.port + 1}`;
  const p = startProc("etcd", o.bin, [
    "--name", "default", "--data-dir", o.dataDir,
    "--listen-client-urls", client, "--advertise-client-urls", client,
    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
    "--initial-cluster", `default=${peer}`,
  ]);
  await p.waitFor(/ready to serve client requests|serving insecure client requests/, 30_000);
  return Object.assign(p, { endpoint: client });
}

/** Deletes every etcd key under `prefix` through etcd's JSON gateway; returns how many went. */
export async function deleteEtcdPrefix(endpoint: string, prefix: string): Promise<number> {
  const b64 = (s: string): string => Buffer.from(s).toString("base64");
  // range_end = prefix with its last byte incremented: the whole "directory".
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const r = await fetch(`${endpoint.replace(/\/$/, "")}/v3/kv/deleterange`, { method: "POST", body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }) });
  if (!r.ok) throw new Error(`etcd deleterange ${prefix}: ${r.status} ${await r.text()}`);
  const body = (await r.json()) as { deleted?: string };
  return Number(body.deleted ?? 0);
}
