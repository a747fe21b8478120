/**
 * The real processes the e2e suites start, kill and restart: `servicenet up` (the apiserver alone),
 * the controller-manager and a private etcd, each found through its package's `bin` (bins.ts). Each
 * is a child process with its output captured as timestamped lines, a way to wait for a line, and
 * kill/stop by its own pid only.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { apiserverBin, controllerManagerBin } from "./bins.ts";

/** A started child process with its combined output. */
export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Complete output lines so far; `at` = Date.now() when the line arrived. */
  readonly lines: { at: number; text: string }[];
  output(): string;
  /**
   * Resolves with the arrival time of the first line (from line `fromLine`) matching `re`; with
   * `fromLine` 0 the whole output counts too (a pattern across lines, a line without its newline).
   * Rejects if the process exits first or after `timeoutMs`.
   */
  waitFor(re: RegExp, timeoutMs?: number, fromLine?: number): Promise<number>;
  /** How many lines match `re`. */
  count(re: RegExp): number;
  /** Sends `signal` (default SIGKILL) and resolves when the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code (null if a signal ended it). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
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

const tail = (out: string): string => out.slice(-4000);

/** Spawns `cmd args` and captures its output. */
export function startProc(name: string, cmd: string, args: readonly string[], cwd?: string): Proc {
  const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const lines: { at: number; text: string }[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buf = "";
    stream.on("data", (d: Buffer) => {
      out += d.toString();
      buf += d.toString();
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        lines.push({ at: Date.now(), text: buf.slice(0, i) });
        buf = buf.slice(i + 1);
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    pid: child.pid ?? -1,
    lines,
    output: () => out,
    alive,
    count: (re) => lines.filter((l) => re.test(l.text)).length,
    waitFor: async (re, timeoutMs = 120_000, fromLine = 0) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = lines.slice(fromLine).find((l) => re.test(l.text));
        if (hit !== undefined) return hit.at;
        if (fromLine === 0 && re.test(out)) return Date.now();
        if (!alive()) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${tail(out)}`);
        if (Date.now() > deadline) throw new Error(`${name}: no ${re} in ${timeoutMs} ms:\n${tail(out)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    kill: async (signal = "SIGKILL") => {
      if (alive()) child.kill(signal);
      await exited;
    },
    stop: (signal = "SIGTERM") => {
      if (alive()) child.kill(signal);
      return exited;
    },
  };
}

/** Whether the built `servicenet up` knows `flag` (its --help lists it); for flags landing in parallel work. */
export function apiserverSupports(flag: string): boolean {
  return spawnSync(process.execPath, [apiserverBin, "--help"], { encoding: "utf8" }).stdout.includes(flag);
}

/** The apiserver process with its data directory and kubeconfig. */
export interface ApiserverProc extends Proc {
  readonly dataDir: string;
  readonly kubeconfigPath: string;
  /** A client-node KubeConfig loaded from kubeconfigPath. */
  kubeConfig(): KubeConfig;
  /** Stops the apiserver (SIGTERM) and, when the framework made the data directory, removes it. */
  close(): Promise<void>;
}

/**
 * `servicenet up` alone (no controller-manager, no kube-proxy) in `dataDir` (default: a fresh
 * temp directory) on `port` (default 0: any), resolved once it prints its ready line.
 */
export async function startApiserverProc(o: { dataDir?: string; port?: number; args?: readonly string[] } = {}): Promise<ApiserverProc> {
  const own = o.dataDir === undefined ? tempDir("e2e-apiserver") : undefined;
  const dataDir = o.dataDir ?? path.join(own!, "state");
  const p = startProc(
    "apiserver",
    process.execPath,
    [apiserverBin, "--port", String(o.port ?? 0), "--data-dir", dataDir, ...(o.args ?? [])],
    own,
  );
  const removeOwn = (): void => {
    if (own !== undefined) rmSync(own, { recursive: true, force: true });
  };
  try {
    await p.waitFor(/servicenet ready/, 120_000);
  } catch (err) {
    await p.kill("SIGKILL");
    removeOwn();
    throw err;
  }
  const kubeconfigPath = path.join(dataDir, "kubeconfig");
  return Object.assign(p, {
    dataDir,
    kubeconfigPath,
    kubeConfig: () => {
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfigPath);
      return kc;
    },
    close: async () => {
      await p.kill("SIGTERM");
      removeOwn();
    },
  });
}

/**
 * The controller-manager for a kubeconfig with extra `flags`; resolves once a line matches
 * `synced` (default: the EndpointSlice controller's caches are synced), or at once with `false`.
 */
export async function startControllerManagerProc(
  kubeconfigPath: string,
  o: { flags?: readonly string[]; synced?: RegExp | false; timeoutMs?: number } = {},
): Promise<Proc> {
  const p = startProc(
    "controller-manager",
    process.execPath,
    // Several controller-managers run at once (leader election, parallel files): no fixed --secure-port
    // unless a test asks for one (a later flag wins).
    [controllerManagerBin, "--kubeconfig", kubeconfigPath, "--secure-port", "0", ...(o.flags ?? [])],
    path.dirname(kubeconfigPath),
  );
  const synced = o.synced ?? /Caches are synced.*endpointslice/;
  if (synced !== false) await p.waitFor(synced, o.timeoutMs ?? 30_000);
  return p;
}

/** The leader-election identity a controller-manager process uses (`<hostname>_<pid>`). */
export function identityOf(p: Proc): string {
  return `${hostname()}_${p.pid}`;
}

/** Resolves once the endpointslice and endpoint controllers of `p` report synced caches (from `fromLine`). */
export async function waitSynced(p: Proc, fromLine = 0, timeoutMs = 120_000): Promise<number> {
  const a = await p.waitFor(/"msg":"Caches are synced","controller":"endpointslice"}/, timeoutMs, fromLine);
  const b = await p.waitFor(/"msg":"Caches are synced","controller":"endpoint"}/, timeoutMs, fromLine);
  return Math.max(a, b);
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
    "--name",
    "default",
    "--data-dir",
    o.dataDir,
    "--listen-client-urls",
    client,
    "--advertise-client-urls",
    client,
    "--listen-peer-urls",
    peer,
    "--initial-advertise-peer-urls",
    peer,
    "--initial-cluster",
    `default=${peer}`,
  ]);
  await p.waitFor(/ready to serve client requests|serving insecure client requests/, 30_000);
  return Object.assign(p, { endpoint: client });
}

/** Deletes every etcd key under `prefix` through etcd's JSON gateway; returns how many went. */
export async function deleteEtcdPrefix(endpoint: string, prefix: string): Promise<number> {
  const b64 = (s: string): string => Buffer.from(s).toString("base64");
  // range_end = prefix with its last byte incremented: the whole "directory".
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const r = await fetch(`${endpoint.replace(/\/$/, "")}/v3/kv/deleterange`, {
    method: "POST",
    body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }),
  });
  if (!r.ok) throw new Error(`etcd deleterange ${prefix}: ${r.status} ${await r.text()}`);
  const body = (await r.json()) as { deleted?: string };
  return Number(body.deleted ?? 0);
}

/**
 * Compacts etcd's history to its current revision behind the apiserver's back, as `etcdctl
 * compact $(current)` does: with `etcdctl` when it is installed, otherwise the same Compact RPC
 * through etcd's JSON gateway (Debian's etcd-server does not bring etcdctl). Returns the revision.
 */
export async function compactEtcd(endpoint: string): Promise<number> {
  const base = endpoint.replace(/\/$/, "");
  const range = await fetch(`${base}/v3/kv/range`, { method: "POST", body: JSON.stringify({ key: Buffer.from("\0").toString("base64") }) });
  if (!range.ok) throw new Error(`etcd range: ${range.status} ${await range.text()}`);
  const revision = Number(((await range.json()) as { header: { revision: string } }).header.revision);
  const etcd = etcdBinary();
  const etcdctl = etcd ? path.join(path.dirname(etcd), "etcdctl") : "";
  if (
    etcdctl &&
    spawnSync(etcdctl, ["--endpoints", endpoint, "compact", String(revision)], { env: { ...process.env, ETCDCTL_API: "3" } }).status === 0
  )
    return revision;
  const r = await fetch(`${base}/v3/kv/compaction`, { method: "POST", body: JSON.stringify({ revision: String(revision) }) });
  if (!r.ok) throw new Error(`etcd compaction to ${revision}: ${r.status} ${await r.text()}`);
  return revision;
}
