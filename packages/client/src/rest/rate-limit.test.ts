import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig, Watch } from "@kubernetes/client-node";
import { FakeClock } from "@servicenet/component-base/clock";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withRateLimit } from "./rate-limit.ts";
import { newRESTClient } from "./rest-client.ts";

let server: Server;
let url = "";
let arrived = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    arrived++;
    if (req.url?.includes("watch=true")) return void res.writeHead(200).end();
    res.writeHead(200, { "Content-Type": "application/json" }).end('{"kind":"NamespaceList","apiVersion":"v1","metadata":{},"items":[]}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

// client-node's typed APIs want skipTLSVerify on a plain-HTTP server; newRESTClient copies the
// KubeConfig without it (the copy keeps the bucket).
function kubeConfig(skipTLSVerify = true): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: url, skipTLSVerify }],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe("withRateLimit (rest.Config QPS and Burst)", () => {
  it("makes the typed clients, newRESTClient and watches of the KubeConfig share one bucket", async () => {
    arrived = 0;
    const clock = new FakeClock(0);
    const kc = withRateLimit(kubeConfig(), { qps: 1, burst: 3 }, clock);
    const core = kc.makeApiClient(CoreV1Api);
    const rest = newRESTClient(kc);
    const all = Promise.all([
      core.listNamespace(),
      rest.request("GET", "/api/v1/namespaces"),
      new Watch(kc).watch(
        "/api/v1/namespaces",
        {},
        () => {},
        () => {},
      ),
      core.listNamespace(),
    ]);
    await eventually(() => expect(arrived).toBe(3));
    clock.step(999);
    await settle();
    expect(arrived).toBe(3);
    clock.step(1);
    await all;
    expect(arrived).toBe(4);
  });

  it("gives each copy its own bucket, as a clientset per rest.Config", async () => {
    arrived = 0;
    const clock = new FakeClock(0);
    const base = kubeConfig(false);
    const a = newRESTClient(withRateLimit(base, { qps: 1, burst: 1 }, clock));
    const b = newRESTClient(withRateLimit(base, { qps: 1, burst: 1 }, clock));
    await Promise.all([a.request("GET", "/api/v1/namespaces"), b.request("GET", "/api/v1/namespaces")]);
    expect(arrived).toBe(2);
    const third = a.request("GET", "/api/v1/namespaces");
    await settle();
    expect(arrived).toBe(2);
    clock.step(1000);
    await third;
    expect(arrived).toBe(3);
  });

  it.each([
    { name: "0 means DefaultQPS 5 and DefaultBurst 10", limits: { qps: 0, burst: 0 }, first: 10 },
    { name: "a negative QPS means no limit (the kubelet's heartbeat client)", limits: { qps: -1, burst: 0 }, first: 12 },
  ])("$name", async ({ limits, first }) => {
    arrived = 0;
    const clock = new FakeClock(0);
    const rest = newRESTClient(withRateLimit(kubeConfig(), limits, clock));
    const all = Promise.all(Array.from({ length: 12 }, () => rest.request("GET", "/api/v1/namespaces")));
    await eventually(() => expect(arrived).toBe(first));
    await settle();
    expect(arrived).toBe(first);
    clock.step(1000);
    await all;
    expect(arrived).toBe(12);
  });
});
