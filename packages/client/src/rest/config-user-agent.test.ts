import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig, Watch } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUserAgent } from "./config-user-agent.ts";
import { withRateLimit } from "./rate-limit.ts";
import { newRESTClient } from "./rest-client.ts";

let server: Server;
let url = "";
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url?.split("?")[0]} ${req.headers["user-agent"]}`);
    req.resume();
    req.on("end", () => {
      const list = { kind: "NodeList", apiVersion: "v1", metadata: { resourceVersion: "1" }, items: [] };
      res.writeHead(200, { "Content-Type": "application/json" }).end(req.url?.includes("watch=") ? "" : JSON.stringify(list));
    });
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
    clusters: [{ name: "c", server: url, skipTLSVerify: true }],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}

async function everyClient(kc: KubeConfig): Promise<string[]> {
  seen.length = 0;
  await kc.makeApiClient(CoreV1Api).listNode();
  await new Promise<void>((resolve, reject) => {
    void new Watch(kc).watch(
      "/api/v1/nodes",
      {},
      () => {},
      (err) => (err ? reject(err as Error) : resolve()),
    );
  });
  await newRESTClient(kc).request("GET", "/api/v1/nodes");
  return [...seen];
}

describe("setUserAgent (rest.Config.UserAgent)", () => {
  const ua = "kube-scheduler/v1.33.0 (linux/amd64) kubernetes/0000000/scheduler";

  it("puts the User-Agent on typed API calls, watches and raw REST requests", async () => {
    const kc = setUserAgent(kubeConfig(), ua);
    expect(await everyClient(kc)).toEqual([`GET /api/v1/nodes ${ua}`, `GET /api/v1/nodes ${ua}`, `GET /api/v1/nodes ${ua}`]);
  });

  it("without it client-node's requests say node-fetch, which the apiserver takes for the field manager", async () => {
    const agents = (await everyClient(kubeConfig())).map((l) => l.split(" ")[2]);
    expect(agents.slice(0, 2)).toEqual(["node-fetch/1.0", "node-fetch/1.0"]);
  });

  it("keeps a client's own User-Agent, and goes with copies (withRateLimit)", async () => {
    const kc = withRateLimit(setUserAgent(kubeConfig(), ua), { qps: -1, burst: 0 });
    seen.length = 0;
    await newRESTClient(kc, { userAgent: "kubectl/v1.33.0" }).request("GET", "/api/v1/nodes");
    await kc.makeApiClient(CoreV1Api).listNode();
    expect(seen).toEqual(["GET /api/v1/nodes kubectl/v1.33.0", `GET /api/v1/nodes ${ua}`]);
  });

  it("replaces an earlier User-Agent", async () => {
    const kc = setUserAgent(setUserAgent(kubeConfig(), "first"), ua);
    seen.length = 0;
    await kc.makeApiClient(CoreV1Api).listNode();
    expect(seen).toEqual([`GET /api/v1/nodes ${ua}`]);
  });
});
