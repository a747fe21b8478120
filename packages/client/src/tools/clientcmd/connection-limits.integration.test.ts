import { createServer, type ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newRESTClient } from "../../rest/rest-client.ts";
import { withRateLimit } from "../../rest/rate-limit.ts";
import { connectionLimitsOf, DefaultMaxSockets, reuseConnections, setConnectionLimits } from "./connection-reuse.ts";

// One server counting connections, requests in flight at once, and closed connections. It holds
// short requests until `gate` of them are in flight (or none came for a while: the last few), so
// a pool that is not capped shows as many at once; watch requests stay open (one line, then
// nothing) until the test ends them.
let server: Server;
let url = "";
let connections = 0;
let closed = 0;
let inFlight = 0;
let maxInFlight = 0;
let gate = 25;
const watches: ServerResponse[] = [];
const held: ServerResponse[] = [];
let straggler: NodeJS.Timeout | undefined;
const list = '{"kind":"NamespaceList","apiVersion":"v1","metadata":{},"items":[]}';

function release(): void {
  clearTimeout(straggler);
  inFlight -= held.length;
  for (const res of held.splice(0)) res.writeHead(200, { "content-type": "application/json", "content-length": list.length }).end(list);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.includes("watch=true")) {
      watches.push(res);
      res.writeHead(200, { "content-type": "application/json" }).write('{"type":"BOOKMARK","object":{}}\n');
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    held.push(res);
    clearTimeout(straggler);
    if (held.length >= gate) release();
    else straggler = setTimeout(release, 50);
  });
  server.on("connection", (s) => {
    connections++;
    s.on("close", () => closed++);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
beforeEach(() => {
  server.closeAllConnections();
  connections = 0;
  closed = 0;
  maxInFlight = 0;
  gate = 25;
});

const kubeConfig = () => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: url, skipTLSVerify: true }],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
};

describe("a KubeConfig's connection pool", () => {
  it("opens at most maxSockets (default 25) connections for concurrent requests of all its clients", async () => {
    const kc = reuseConnections(kubeConfig());
    const a = newRESTClient(kc);
    const b = newRESTClient(kc);
    const typed = kc.makeApiClient(CoreV1Api);
    await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        i % 3 === 0 ? a.request("GET", "/x") : i % 3 === 1 ? b.request("GET", "/x") : typed.listNamespace(),
      ),
    );
    expect(DefaultMaxSockets).toBe(25);
    expect(maxInFlight).toBe(25);
    expect(connections).toBe(25);
  });

  it("shares the connection between the typed clients and newRESTClient", async () => {
    const kc = reuseConnections(kubeConfig());
    const typed = kc.makeApiClient(CoreV1Api);
    const rest = newRESTClient(kc);
    for (let i = 0; i < 3; i++) {
      await typed.listNamespace();
      await rest.request("GET", "/x");
    }
    expect(connections).toBe(1);
  });

  it("takes other caps, and keeps at most maxFreeSockets idle connections", async () => {
    gate = 3;
    const kc = reuseConnections(kubeConfig(), { maxSockets: 3, maxFreeSockets: 2 });
    expect(connectionLimitsOf(kc)).toEqual({ maxSockets: 3, maxFreeSockets: 2 });
    const rest = newRESTClient(kc);
    await Promise.all(Array.from({ length: 20 }, () => rest.request("GET", "/x")));
    expect(maxInFlight).toBe(3);
    expect(connections).toBe(3);
    await eventually(() => expect(closed).toBe(1));
  });

  it("keeps watches off the capped sockets, so open watches do not starve short requests", async () => {
    const kc = reuseConnections(kubeConfig(), { maxSockets: 2 });
    const rest = newRESTClient(kc);
    const abort = new AbortController();
    const lines: string[] = [];
    const streams = Array.from({ length: 3 }, () =>
      rest.stream("GET", "/api/v1/pods?watch=true", { signal: abort.signal }, (l) => lines.push(l)),
    );
    await eventually(() => expect(lines).toHaveLength(3));
    await expect(Promise.all(Array.from({ length: 4 }, () => rest.request("GET", "/x")))).resolves.toHaveLength(4);
    expect(connections).toBe(5);
    abort.abort();
    await Promise.all(streams);
    for (const w of watches.splice(0)) w.end();
  });

  it("gives a withRateLimit copy a pool of its own with the same caps", async () => {
    const kc = reuseConnections(kubeConfig(), { maxSockets: 2 });
    const copy = withRateLimit(kc, { qps: -1, burst: 0 });
    expect(connectionLimitsOf(copy)).toEqual(connectionLimitsOf(kc));
    await Promise.all([newRESTClient(kc).request("GET", "/x"), newRESTClient(copy).request("GET", "/x")]);
    expect(connections).toBe(2);
  });

  it("refuses caps that are not positive integers", () => {
    expect(() => setConnectionLimits(kubeConfig(), { maxSockets: 0 })).toThrow("maxSockets must be a positive integer, got 0");
    expect(() => setConnectionLimits(kubeConfig(), { maxFreeSockets: 1.5 })).toThrow("maxFreeSockets must be a positive integer, got 1.5");
  });
});
