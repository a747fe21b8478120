/**
 * kube-proxy's health server (pkg/proxy/healthcheck/proxier_health.go, proxierHealthServer):
 * `/healthz` and `/livez` on `--healthz-bind-address`. Healthy while no queued rule update is older
 * than the health timeout (2 x --sync-period, as cmd/kube-proxy/app/server.go passes), per IP
 * family; `/healthz` is also unhealthy once this node is being deleted or carries the cluster
 * autoscaler's ToBeDeleted taint.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Node } from "@servicenet/api";
import { listenLikeGo, splitHostPort } from "@servicenet/component-base/net";
import type { ProxyMetrics } from "../metrics/metrics.ts";

/** The cluster autoscaler's taint on a node it is about to delete (proxier_health.go ToBeDeletedTaint). */
export const toBeDeletedTaint = "ToBeDeletedByClusterAutoscaler";

/** What a rule syncer tells the health server (ProxierHealthUpdater's QueuedUpdate / Updated). */
export interface ProxierHealthUpdater {
  queuedUpdate(family: string): void;
  updated(family: string): void;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/**
 * Go's time.Time String() of a UTC wall clock with its monotonic reading, as `%q` prints
 * time.Now() in the upstream handler: `2025-01-02 03:04:05.123 +0000 UTC m=+12.345678901`.
 */
export function goTimeString(wallMs: number, monotonicMs: number): string {
  const d = new Date(wallMs);
  const frac = d.getUTCMilliseconds() === 0 ? "" : `.${pad(d.getUTCMilliseconds(), 3).replace(/0+$/, "")}`;
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}`;
  return `${date} ${time} +0000 UTC m=+${(monotonicMs / 1000).toFixed(9)}`;
}

/** Go's zero time.Time as String() prints it (no monotonic reading). */
export const goZeroTime = "0001-01-01 00:00:00 +0000 UTC";

export interface ProxierHealthOptions {
  /** A queued update older than this makes the proxier unhealthy. */
  healthTimeoutMs: number;
  /** Wall clock (ms since the epoch); default Date.now. */
  now?: () => number;
  /** Monotonic clock (ms since start); default performance.now. */
  monotonic?: () => number;
  /** `kubeproxy_proxy_healthz_total` / `kubeproxy_proxy_livez_total`: each answer counted by status code. */
  metrics?: Pick<ProxyMetrics, "proxyHealthzTotal" | "proxyLivezTotal">;
}

interface Stamp {
  wall: number;
  mono: number;
}

export class ProxierHealthServer implements ProxierHealthUpdater {
  readonly #timeout: number;
  readonly #now: () => number;
  readonly #mono: () => number;
  readonly #metrics: ProxierHealthOptions["metrics"];
  readonly #oldestPending = new Map<string, Stamp>();
  readonly #lastUpdated = new Map<string, Stamp>();
  #nodeEligible = true;

  constructor(o: ProxierHealthOptions) {
    this.#timeout = o.healthTimeoutMs;
    this.#now = o.now ?? Date.now;
    this.#mono = o.monotonic ?? (() => performance.now());
    this.#metrics = o.metrics;
  }

  #stamp(): Stamp {
    return { wall: this.#now(), mono: this.#mono() };
  }

  /** A change for `family` is waiting for the next sync (the first one's time counts). */
  queuedUpdate(family: string): void {
    if (!this.#oldestPending.has(family)) this.#oldestPending.set(family, this.#stamp());
  }

  /** `family`'s rules are applied: nothing is pending any more. */
  updated(family: string): void {
    this.#oldestPending.delete(family);
    this.#lastUpdated.set(family, this.#stamp());
  }

  /** SyncNode: not eligible while the node is being deleted or tainted ToBeDeleted. */
  syncNode(node: Node): void {
    const deleting = Boolean(node.metadata?.deletionTimestamp);
    // The Node schema keeps spec loosely typed; taints are read as upstream's []Taint.
    const taints = (node.spec as { taints?: { key?: string }[] } | undefined)?.taints ?? [];
    this.#nodeEligible = !deleting && !taints.some((t) => t.key === toBeDeletedTaint);
  }

  /** isHealthy: every family's oldest pending update is younger than the timeout. */
  health(): { healthy: boolean; lastUpdated: Stamp | undefined; current: Stamp } {
    const current = this.#stamp();
    const healthy = [...this.#oldestPending.values()].every((p) => current.wall - p.wall < this.#timeout);
    let lastUpdated: Stamp | undefined;
    for (const s of this.#lastUpdated.values()) if (lastUpdated === undefined || s.wall < lastUpdated.wall) lastUpdated = s;
    return { healthy, lastUpdated, current };
  }

  get nodeEligible(): boolean {
    return this.#nodeEligible;
  }

  /** The `/healthz` and `/livez` handlers (404 elsewhere), bodies byte for byte upstream's. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/healthz" && path !== "/livez") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("404 page not found\n");
      return;
    }
    const h = this.health();
    const healthy = path === "/healthz" ? h.healthy && this.#nodeEligible : h.healthy;
    // When healthy, lastUpdated is reported as now (upstream keeps the old releases' meaning).
    const last = healthy ? h.current : h.lastUpdated;
    const lastText = last === undefined ? goZeroTime : goTimeString(last.wall, last.mono);
    const currentText = goTimeString(h.current.wall, h.current.mono);
    const code = healthy ? 200 : 503;
    (path === "/healthz" ? this.#metrics?.proxyHealthzTotal : this.#metrics?.proxyLivezTotal)?.inc({ code: String(code) });
    res.writeHead(code, { "content-type": "application/json", "x-content-type-options": "nosniff" });
    res.end(
      path === "/healthz"
        ? `{"lastUpdated": ${JSON.stringify(lastText)},"currentTime": ${JSON.stringify(currentText)}, "nodeEligible": ${this.#nodeEligible}}`
        : `{"lastUpdated": ${JSON.stringify(lastText)},"currentTime": ${JSON.stringify(currentText)}}`,
    );
  }

  /** Run: listens on `host:port` ("[::1]:0" style brackets allowed; "0.0.0.0" both families, as Go). */
  async listen(bind: string): Promise<Server> {
    const { host, port } = splitHostPort(bind);
    const server = createServer((req, res) => this.handle(req, res));
    try {
      await listenLikeGo(server, host, port);
    } catch (e) {
      throw new Error(`failed to start proxier healthz on ${bind}: ${(e as Error).message}`);
    }
    return server;
  }
}
