import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { userAgentOf } from "@servicenet/client/rest";
import { afterEach, describe, expect, it } from "vitest";
import { dynamicClientBuilder, simpleClientBuilder } from "./client-builder.ts";

const kubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
users:
  - {name: cm, user: {client-certificate-data: Y2VydA==, client-key-data: a2V5}}
contexts: [{name: c, context: {cluster: c, user: cm}}]
current-context: c
`;

describe("ControllerClientBuilder", () => {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);

  it("uses the main credentials for every controller without --use-service-account-credentials", () => {
    const ep = simpleClientBuilder(kc).configFor("endpoint-controller");
    expect(ep.getCurrentUser()?.name).toBe("cm");
    expect(ep.getCurrentCluster()?.server).toBe("https://127.0.0.1:6443");
  });

  it("gives each controller the User-Agent kube-controller-manager/.../<name> (ConfigOrDie's AddUserAgent)", () => {
    for (const cb of [simpleClientBuilder(kc), simpleClientBuilder(kc, { qps: 20, burst: 30 })]) {
      const ua = userAgentOf(cb.configFor("replicaset-controller"));
      expect(ua).toMatch(/^kube-controller-manager\/v1\.33\.0\+servicenet \(.+\) kubernetes\/[0-9a-f]{7}\/replicaset-controller$/);
      expect(userAgentOf(cb.configFor("shared-informers"))?.endsWith("/shared-informers")).toBe(true);
    }
    // constructClient: the dynamic builder's agent ends with the service account's user name.
    expect(userAgentOf(dynamicClientBuilder(kc).configFor("replicaset-controller"))).toMatch(
      /\/system:serviceaccount:kube-system:replicaset-controller$/,
    );
    expect(userAgentOf(kc)).toBeUndefined();
  });

  it("gives each controller a configuration of its own with --kube-api-qps/--kube-api-burst (a clientset each)", () => {
    const limits = { qps: 20, burst: 30 };
    for (const cb of [simpleClientBuilder(kc, limits), dynamicClientBuilder(kc, "kube-system", limits)]) {
      const ep = cb.configFor("endpoint-controller");
      const ns = cb.configFor("namespace-controller");
      expect(ep).not.toBe(kc);
      expect(ns).not.toBe(ep);
      expect(cb.configFor("endpoint-controller")).toBe(ep);
    }
  });
});

// staging/src/k8s.io/controller-manager/pkg/clientbuilder/client_builder_dynamic_test.go TestDynamicClientBuilder,
// against a small apiserver that records what the builder asks.
describe("DynamicControllerClientBuilder", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  async function start(o: { tokenLifetimeS: number; failTokens?: number }) {
    const calls: string[] = [];
    const serviceAccounts = new Set<string>();
    let tokens = 0;
    let failures = o.failTokens ?? 0;
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const path = req.url ?? "";
        calls.push(`${req.method} ${path} ${req.headers.authorization ?? "-"}`);
        const json = (code: number, obj: unknown) => {
          res.writeHead(code, { "Content-Type": "application/json" });
          res.end(JSON.stringify(obj));
        };
        const notFound = () => json(404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 });
        const sa = /^\/api\/v1\/namespaces\/kube-system\/serviceaccounts\/([^/]+)(\/token)?$/.exec(path);
        if (req.method === "GET" && path === "/api/v1/namespaces/kube-system") return notFound();
        if (req.method === "POST" && path === "/api/v1/namespaces") return json(201, JSON.parse(body));
        if (req.method === "POST" && path === "/api/v1/namespaces/kube-system/serviceaccounts") {
          serviceAccounts.add((JSON.parse(body) as { metadata: { name: string } }).metadata.name);
          return json(201, JSON.parse(body));
        }
        if (sa && !sa[2] && req.method === "GET")
          return serviceAccounts.has(sa[1]!) ? json(200, { metadata: { name: sa[1], namespace: "kube-system" } }) : notFound();
        if (sa && sa[2] && req.method === "POST") {
          if (failures-- > 0) return json(500, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "InternalError", code: 500 });
          const spec = (JSON.parse(body) as { spec: { expirationSeconds: number } }).spec;
          const expiration = new Date(Date.now() + o.tokenLifetimeS * 1000).toISOString().replace(/\.\d+Z$/, "Z");
          return json(201, { kind: "TokenRequest", spec, status: { token: `token-${++tokens}`, expirationTimestamp: expiration } });
        }
        if (req.method === "GET" && path === "/api/v1/namespaces") return json(200, { kind: "NamespaceList", metadata: {}, items: [] });
        notFound();
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: "c", server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true },
      { name: "cm", token: "root-token" },
    );
    return { kc, calls };
  }

  it("provisions the ServiceAccount, asks an hour-long token with the root credentials and sends it as the controller's", async () => {
    const { kc, calls } = await start({ tokenLifetimeS: 3600 });
    const ep = dynamicClientBuilder(kc).configFor("endpoint-controller");
    expect(ep.getCurrentUser()?.token).toBeUndefined();
    await ep.makeApiClient(CoreV1Api).listNamespace();
    await ep.makeApiClient(CoreV1Api).listNamespace();
    expect(calls).toEqual([
      "GET /api/v1/namespaces/kube-system/serviceaccounts/endpoint-controller Bearer root-token",
      "GET /api/v1/namespaces/kube-system Bearer root-token",
      "POST /api/v1/namespaces Bearer root-token",
      "POST /api/v1/namespaces/kube-system/serviceaccounts Bearer root-token",
      "POST /api/v1/namespaces/kube-system/serviceaccounts/endpoint-controller/token Bearer root-token",
      "GET /api/v1/namespaces Bearer token-1",
      // The cached token: no new TokenRequest.
      "GET /api/v1/namespaces Bearer token-1",
    ]);
  });

  it("renews the token once leewayPercent of its lifetime is left", async () => {
    const { kc, calls } = await start({ tokenLifetimeS: 3600 });
    let now = Date.now();
    const ep = dynamicClientBuilder(kc, "kube-system", undefined, { now: () => now }).configFor("endpoint-controller");
    const api = ep.makeApiClient(CoreV1Api);
    await api.listNamespace();
    now += 0.79 * 3600_000;
    await api.listNamespace();
    now += 0.02 * 3600_000;
    await api.listNamespace();
    expect(calls.filter((c) => c.startsWith("GET /api/v1/namespaces ")).map((c) => c.split(" ")[3])).toEqual([
      "token-1",
      "token-1",
      "token-2",
    ]);
  });

  it("retries a failed TokenRequest with backoff (500 ms, doubling, 4 attempts), then fails the request", async () => {
    const { kc } = await start({ tokenLifetimeS: 3600, failTokens: 3 });
    const waits: number[] = [];
    const sleep = (ms: number) => (waits.push(ms), Promise.resolve());
    await dynamicClientBuilder(kc, "kube-system", undefined, { sleep })
      .configFor("endpoint-controller")
      .makeApiClient(CoreV1Api)
      .listNamespace();
    expect(waits).toEqual([500, 1000, 2000]);
    const failing = await start({ tokenLifetimeS: 3600, failTokens: 4 });
    const run = dynamicClientBuilder(failing.kc, "kube-system", undefined, { sleep }).configFor("namespace-controller");
    await expect(run.makeApiClient(CoreV1Api).listNamespace()).rejects.toThrow(
      "failed to get token for kube-system/namespace-controller: timed out waiting for the condition",
    );
  });
});
