/**
 * Several `servicenet up` processes on ONE storage, as a skewed control plane runs: on SQLite
 * they share one `--data-dir` (so one `state.db`, and the CA, serving certificate and token the
 * first one made), each on its own port; on etcd each has its own data dir and the same
 * `--datastore-endpoint`. `servicenet up` rewrites `<data-dir>/kubeconfig` with its own port, so
 * each process's kubeconfig is copied aside right after it became ready (starts are sequential).
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createStore, type Store } from "@servicenet/apiserver";
import { apiClientFromKubeconfig, type ApiClient } from "../faults/api-client.ts";
import { deleteEtcdPrefix, freePort, startApiserverProc, tempDir, type Proc } from "../framework/processes.ts";
import { eventually } from "@servicenet/testing";

/** Where the processes keep their state. */
export interface SharedBackend {
  name: "sqlite" | "etcd";
  /** etcd client URL (etcd only). */
  endpoint?: string;
}

/** The etcd named by SERVICENET_ETCD_ENDPOINTS (first URL), or undefined with a visible warning. */
export function etcdFromEnv(suite: string): string | undefined {
  const e = process.env["SERVICENET_ETCD_ENDPOINTS"]?.split(",")[0];
  if (!e) console.warn(`${suite}: SERVICENET_ETCD_ENDPOINTS is not set; the etcd case is skipped`);
  return e;
}

/** One apiserver process of the shared control plane. */
export interface Member {
  name: string;
  port: number;
  /** Its `servicenet up` flags (without --port/--data-dir). */
  args: string[];
  proc: Proc;
  kubeconfigPath: string;
  client: ApiClient;
}

/** A control plane of apiserver processes on one storage. */
export interface SharedCluster {
  backend: SharedBackend;
  /** SQLite: the shared data dir; etcd: the parent of the per-member dirs. */
  dir: string;
  members: Member[];
  /** Starts another member (sequentially: the kubeconfig copy must not race). */
  add(name: string, args: readonly string[]): Promise<Member>;
  /** Stops `m` (SIGTERM) and starts it again on the same port with `args`. */
  restart(m: Member, args: readonly string[]): Promise<void>;
  /** A direct Store over the same storage (the test's own connection; closed by `stop`). */
  store(): Promise<Store>;
  stop(): Promise<void>;
}

/**
 * Creates an empty shared control plane. On etcd its keys live under a fresh `--etcd-prefix`
 * (`/servicenet-e2e/<uuid>`, deleted at stop), so nothing else on that etcd is touched.
 */
export async function sharedCluster(backend: SharedBackend, prefix: string): Promise<SharedCluster> {
  const dir = tempDir(`${prefix}-${backend.name}`);
  const etcdPrefix = `/servicenet-e2e/${randomUUID()}`;
  const members: Member[] = [];
  let store: Store | undefined;
  const dataDir = (name: string): string => (backend.name === "sqlite" ? dir : path.join(dir, name));
  const storageArgs = backend.endpoint ? ["--datastore-endpoint", backend.endpoint, "--etcd-prefix", etcdPrefix] : [];
  const launch = async (name: string, port: number, args: readonly string[]): Promise<{ proc: Proc; kubeconfigPath: string }> => {
    const proc = await startApiserverProc({ dataDir: dataDir(name), port, args: [...args, ...storageArgs] });
    const kubeconfigPath = path.join(dir, `kubeconfig-${name}`);
    copyFileSync(proc.kubeconfigPath, kubeconfigPath);
    return { proc, kubeconfigPath };
  };
  const cluster: SharedCluster = {
    backend,
    dir,
    members,
    add: async (name, args) => {
      const port = await freePort();
      const { proc, kubeconfigPath } = await launch(name, port, args);
      const m: Member = { name, port, args: [...args], proc, kubeconfigPath, client: apiClientFromKubeconfig(kubeconfigPath, 16) };
      members.push(m);
      return m;
    },
    restart: async (m, args) => {
      await m.proc.kill("SIGTERM");
      const { proc } = await launch(m.name, m.port, args);
      m.proc = proc;
      m.args = [...args];
    },
    store: async () => {
      store ??= await createStore(
        backend.endpoint
          ? { backend: "etcd", endpoints: [backend.endpoint], etcdPrefix }
          : { backend: "sqlite", path: path.join(dir, "state.db"), pollIntervalMs: 200 },
      );
      return store;
    },
    stop: async () => {
      for (const m of members) {
        m.client.close();
        if (!m.proc.alive())
          console.warn(
            `${prefix}: apiserver ${m.name} had exited (${m.proc.child.exitCode ?? m.proc.child.signalCode}):\n${m.proc.output().slice(-3000)}`,
          );
      }
      await Promise.all(members.map((m) => m.proc.kill("SIGTERM")));
      await store?.close();
      if (backend.endpoint) await deleteEtcdPrefix(backend.endpoint, `${etcdPrefix}/`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** `--feature-gates` values of the three allocator modes (Kubernetes 1.33 names). */
export const gates = {
  bitmap: "MultiCIDRServiceAllocator=false",
  dualWrite: "MultiCIDRServiceAllocator=true,DisableAllocatorDualWrite=false",
  ipaddress: "MultiCIDRServiceAllocator=true,DisableAllocatorDualWrite=true",
} as const;

/** `servicenet up` flags for one allocator mode over `ranges`, with a short repair period. */
export function upArgs(gate: string, ranges: string, repairInterval = "2s"): string[] {
  return ["--feature-gates", gate, "--service-cluster-ip-range", ranges, "--repair-interval", repairInterval];
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it returns a value; throws naming `what` after `timeoutMs` (the shared e2e helper). */
export const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 250): Promise<T> =>
  eventually(probe, { timeoutMs, intervalMs: everyMs, what });
