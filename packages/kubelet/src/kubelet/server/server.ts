/**
 * The kubelet's read-only server (pkg/kubelet/server/server.go
 * `ListenAndServeKubeletReadOnlyServer`): plain HTTP on `--address`:`--read-only-port`, no
 * authentication, serving `/healthz` and `/metrics` (the kubelet's registry, one for all the
 * simulated Nodes of the process). The authenticated port 10250, `/pods`, `/stats` and the
 * streaming endpoints are not served.
 */
import { createServer, type Server } from "node:http";
import { serveHealth } from "@servicenet/component-base/healthz";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { listenLikeGo } from "@servicenet/component-base/net";

export interface ReadOnlyServer {
  /** host:port it listens on. */
  address: string;
  close(): Promise<void>;
}

/** Serves `/healthz` and `/metrics` on `address`:`port` (0: any free port) until closed. */
export async function listenAndServeReadOnly(address: string, port: number, metrics: MetricsRegistry): Promise<ReadOnlyServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://kubelet");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname === "/metrics") {
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
      res.end(metrics.render());
      return;
    }
    void serveHealth({ healthz: [] }, url.pathname, url.searchParams).then((answer) => {
      if (answer === undefined) res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found\n");
      else
        res.writeHead(answer.code, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" }).end(answer.body);
    });
  });
  await listenLikeGo(server, address, port);
  const a = server.address();
  const bound = a !== null && typeof a === "object" ? `${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}` : "";
  return {
    address: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
