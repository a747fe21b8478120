import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reuseConnections } from "./connection-reuse.ts";

describe("reuseConnections", () => {
  let server: Server;
  let connections = 0;
  let url = "";
  beforeAll(async () => {
    server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"kind":"NamespaceList","apiVersion":"v1","metadata":{},"items":[]}'),
    );
    server.on("connection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

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
  const fiveLists = async (kc: KubeConfig) => {
    const api = kc.makeApiClient(CoreV1Api);
    const before = connections;
    for (let i = 0; i < 5; i++) await api.listNamespace();
    return connections - before;
  };

  it("client-node alone opens a connection per request (why this exists)", async () => {
    expect(await fiveLists(kubeConfig())).toBe(5);
  });

  it("with it, sequential requests share one keep-alive connection; applying twice changes nothing", async () => {
    const kc = reuseConnections(reuseConnections(kubeConfig()));
    expect(await fiveLists(kc)).toBe(1);
  });
});
