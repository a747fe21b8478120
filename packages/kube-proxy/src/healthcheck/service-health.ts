/**
 * kube-proxy's per-Service health check servers (pkg/proxy/healthcheck/service_health.go):
 * for every `externalTrafficPolicy: Local` LoadBalancer Service with a
 * `healthCheckNodePort`, an HTTP server on that port that load balancers probe:
 * 200 while this node has ready local endpoints and the proxier is healthy,
 * 503 otherwise, with upstream's JSON body and headers. Opened and closed as
 * the proxiers' syncs report Services.
 */
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { IPFamily } from "@servicenet/api";
import { listenLikeGo } from "@servicenet/component-base/net";

/** What each family proxier reports after a successful sync. */
export interface ServiceHealthReport {
  /** `ServicePortMap.HealthCheckNodePorts`: port per "ns/name". */
  readonly services: ReadonlyMap<string, number>;
  /** `EndpointsMap.LocalReadyEndpoints`: local ready endpoints per "ns/name". */
  readonly localEndpoints: ReadonlyMap<string, number>;
}

export interface ServiceHealthServerOptions {
  /** Node name, for the error message. */
  readonly hostname: string;
  /** Addresses each port listens on (upstream: every node address, or the nodePortAddresses). */
  readonly bindAddresses: readonly string[];
  /** The proxier health (`serviceProxyHealthy`). */
  readonly proxierHealth: { health(): { healthy: boolean } };
  readonly logger?: Logger;
}

interface Instance {
  readonly port: number;
  readonly servers: Server[];
}

/**
 * One server for both families: the port of a dual-stack Service is opened once
 * (upstream's second family proxier fails to listen on it) and reports the
 * count of the first family that proxies it, IPv4 before IPv6.
 */
export class ServiceHealthServer {
  readonly #o: ServiceHealthServerOptions;
  readonly #reports = new Map<IPFamily, ServiceHealthReport>();
  readonly #instances = new Map<string, Instance>();
  #syncing: Promise<void> = Promise.resolve();

  constructor(o: ServiceHealthServerOptions) {
    this.#o = o;
  }

  /** `SyncServices` + `SyncEndpoints` for one family; resolves once ports are opened or closed. */
  sync(family: IPFamily, report: ServiceHealthReport): Promise<void> {
    this.#reports.set(family, report);
    this.#syncing = this.#syncing.then(() => this.#syncServices());
    return this.#syncing;
  }

  /** The ports open now, per "ns/name". */
  get ports(): ReadonlyMap<string, number> {
    return new Map([...this.#instances].map(([nsn, i]) => [nsn, i.port]));
  }

  /** Closes every health check server. */
  async close(): Promise<void> {
    this.#reports.clear();
    await this.#syncing;
    await Promise.all([...this.#instances.values()].map(closeAll));
    this.#instances.clear();
  }

  #wanted(): Map<string, number> {
    const out = new Map<string, number>();
    for (const family of ["IPv4", "IPv6"] as const) {
      for (const [nsn, port] of this.#reports.get(family)?.services ?? []) if (!out.has(nsn)) out.set(nsn, port);
    }
    return out;
  }

  #localEndpoints(nsn: string): number {
    for (const family of ["IPv4", "IPv6"] as const) {
      const r = this.#reports.get(family);
      if (r?.services.has(nsn) === true) return r.localEndpoints.get(nsn) ?? 0;
    }
    return 0;
  }

  async #syncServices(): Promise<void> {
    const wanted = this.#wanted();
    for (const [nsn, inst] of this.#instances) {
      if (wanted.get(nsn) === inst.port) continue;
      // service_health.go syncServices: klog.V(2).InfoS.
      V(this.#o.logger ?? noopLogger, 2).info("Closing healthcheck", { service: nsn, port: inst.port });
      this.#instances.delete(nsn);
      await closeAll(inst);
    }
    for (const [nsn, port] of wanted) {
      if (this.#instances.has(nsn)) continue;
      try {
        this.#instances.set(nsn, { port, servers: await this.#listenAll(nsn, port) });
      } catch (err) {
        // Not remembered: the next sync tries again (upstream leaves it out of its map too).
        const e = err as Error;
        (this.#o.logger ?? noopLogger).error("Failed to start healthcheck", { err: e, node: this.#o.hostname, service: nsn, port });
      }
    }
  }

  async #listenAll(nsn: string, port: number): Promise<Server[]> {
    const servers: Server[] = [];
    try {
      for (const host of this.#o.bindAddresses) servers.push(await listen(host, port, (req, res) => this.#serve(nsn, req, res)));
    } catch (err) {
      await closeAll({ port, servers });
      throw err;
    }
    return servers;
  }

  /** `hcHandler.ServeHTTP`. */
  #serve(nsn: string, _req: IncomingMessage, res: ServerResponse): void {
    if (!this.#instances.has(nsn)) {
      res.end();
      return;
    }
    const count = this.#localEndpoints(nsn);
    const healthy = this.#o.proxierHealth.health().healthy;
    const [namespace = "", name = ""] = nsn.split("/");
    res.writeHead(count !== 0 && healthy ? 200 : 503, {
      "Content-Type": "application/json",
      "X-Content-Type-Options": "nosniff",
      "X-Load-Balancing-Endpoint-Weight": String(count),
    });
    res.end(serviceHealthBody(namespace, name, count, healthy));
  }
}

/** Upstream's body: a dedented, tab-indented JSON document without trailing newline. */
export function serviceHealthBody(namespace: string, name: string, count: number, healthy: boolean): string {
  return [
    "{",
    '\t"service": {',
    `\t\t"namespace": ${JSON.stringify(namespace)},`,
    `\t\t"name": ${JSON.stringify(name)}`,
    "\t},",
    `\t"localEndpoints": ${count},`,
    `\t"serviceProxyHealthy": ${healthy}`,
    "}",
  ].join("\n");
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** `hcInstance.listenAndServeAll`'s net.Listen, with Go's wildcard semantics. */
async function listen(host: string, port: number, handler: Handler): Promise<Server> {
  const server = createServer(handler);
  await listenLikeGo(server, host, port);
  return server;
}

async function closeAll(inst: Instance): Promise<void> {
  await Promise.all(
    inst.servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        }),
    ),
  );
}
