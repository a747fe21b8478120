/**
 * `servicenet up --workers N`: N apiserver processes (node:cluster) on one port and one datastore,
 * as N kube-apiservers behind a load balancer. Each worker is a whole apiserver: its own watch
 * cache, allocators, repair loops and bootstrap, all coordinating through storage only (IPAddress
 * create-or-fail, the RangeAllocation's resourceVersion, ServiceCIDR finalizers), exactly as
 * upstream's HA apiservers do. The primary only prepares the data directory, forks, passes accepted
 * connections round-robin to the workers (node:cluster's default on Linux), restarts a worker that
 * dies, and stops them all on SIGINT/SIGTERM.
 */
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "@servicenet/component-base/logs";

/** What a worker tells the primary once it serves. */
export interface WorkerReady {
  type: "servicenet-ready";
  url: string;
  kubeconfig: string;
  /** The controller-manager's, kube-proxy's and the scheduler's kubeconfigs. */
  componentKubeconfigs: { controllerManager: string; kubeProxy: string; scheduler: string };
  allocatorMode: string;
}

export function isWorkerReady(m: unknown): m is WorkerReady {
  return typeof m === "object" && m !== null && (m as { type?: unknown }).type === "servicenet-ready";
}

export interface RunWorkersOptions {
  count: number;
  /** Called once every worker is ready, with the first one's report. */
  onReady(r: WorkerReady): void;
  /** Where a worker's exit is reported (the apiserver's logger). */
  logger: Logger;
}

/**
 * Forks `count` workers (re-running this script with the same argv) and resolves with the exit
 * code: 0 after a clean stop on SIGINT/SIGTERM, 1 when a worker fails before all are ready.
 */
export function runWorkers(o: RunWorkersOptions): Promise<number> {
  return new Promise((resolve) => {
    let ready = 0;
    let announced = false;
    let first: WorkerReady | undefined;
    let stopping = false;
    const live = new Set<Worker>();
    const finish = (code: number): void => {
      stopping = true;
      if (live.size === 0) return resolve(code);
      for (const w of live) w.process.kill("SIGTERM");
      const t = setTimeout(() => {
        for (const w of live) w.process.kill("SIGKILL");
      }, 10_000);
      t.unref();
      cluster.on("exit", () => {
        if (live.size === 0) resolve(code);
      });
    };
    const fork = (): void => {
      const w = cluster.fork();
      live.add(w);
      let workerReady = false;
      w.on("message", (m: unknown) => {
        if (!isWorkerReady(m) || workerReady) return;
        workerReady = true;
        first ??= m;
        if (++ready === o.count && !announced) {
          announced = true;
          o.onReady(first);
        }
      });
      w.on("exit", (code, signal) => {
        live.delete(w);
        if (stopping) return;
        if (!announced) {
          o.logger.error("Worker exited before all workers were ready; stopping", { pid: w.process.pid, exit: signal ?? code });
          finish(1);
          return;
        }
        // A crashed apiserver in an HA set is replaced; the others kept serving meanwhile.
        o.logger.error("Worker exited; starting another", { pid: w.process.pid, exit: signal ?? code });
        ready--;
        fork();
      });
    };
    for (let i = 0; i < o.count; i++) fork();
    process.once("SIGINT", () => finish(0));
    process.once("SIGTERM", () => finish(0));
  });
}

/** In a worker: reports readiness to the primary. */
export function reportReady(r: Omit<WorkerReady, "type">): void {
  process.send?.({ type: "servicenet-ready", ...r } satisfies WorkerReady);
}

/** True in a process forked by {@link runWorkers}. */
export function isWorker(): boolean {
  return cluster.isWorker;
}
