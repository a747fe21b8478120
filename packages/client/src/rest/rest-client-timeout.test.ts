import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newRESTClient, RequestTimeoutError } from "./rest-client.ts";

let server: Server;
let url = "";
let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, res) => res.end("{}");

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: url }],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}

describe("newRESTClient timeoutMs (rest.Config.Timeout)", () => {
  it("sends the timeout as the request's timeout parameter, as request.go URL does", async () => {
    const seen: string[] = [];
    handler = (req, res) => (seen.push(req.url ?? ""), res.writeHead(200).end("{}"));
    await newRESTClient(kubeConfig(), { timeoutMs: 10_000 }).request(
      "PUT",
      "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1",
      {},
    );
    await newRESTClient(kubeConfig(), { timeoutMs: 1500 }).request("GET", "/api/v1/nodes?limit=1");
    await newRESTClient(kubeConfig()).request("GET", "/api/v1/nodes");
    expect(seen).toEqual([
      "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1?timeout=10s",
      "/api/v1/nodes?limit=1&timeout=1.5s",
      "/api/v1/nodes",
    ]);
  });

  it("fails a request whose answer does not come in time with context deadline exceeded", async () => {
    const hung: ServerResponse[] = [];
    handler = (_q, res) => void hung.push(res);
    const rest = newRESTClient(kubeConfig(), { timeoutMs: 100 });
    const started = Date.now();
    const err = await rest.request("PATCH", "/api/v1/nodes/n1/status", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as Error).message).toBe(`Patch "${url}/api/v1/nodes/n1/status?timeout=100ms": context deadline exceeded`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    for (const res of hung) res.destroy();
  });

  it("also cuts an answer whose body stalls (http.Client.Timeout covers the body)", async () => {
    const hung: ServerResponse[] = [];
    handler = (_q, res) => {
      res.writeHead(200, { "Content-Type": "application/json" }).write('{"kind":');
      hung.push(res);
    };
    const err = await newRESTClient(kubeConfig(), { timeoutMs: 100 })
      .request("GET", "/api/v1/nodes/n1")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    for (const res of hung) res.destroy();
  });

  it("leaves a request without a timeout waiting", async () => {
    let answer: ServerResponse | undefined;
    handler = (_q, res) => void setTimeout(() => (answer = res).writeHead(200).end("{}"), 300);
    await expect(newRESTClient(kubeConfig()).request("GET", "/api/v1/nodes/n1")).resolves.toEqual({});
    expect(answer).toBeDefined();
  });
});
