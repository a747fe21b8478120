import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CoreV1Api, KubeConfig, NetworkingV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findKubectl } from "@servicenet/testing";
import { startTestEnvironment, type TestEnvironment } from "./index.ts";

const run = promisify(execFile);
const kubectl = findKubectl("1.33") ?? "";

function clients(env: TestEnvironment, fromFile = false) {
  const kc = new KubeConfig();
  if (fromFile) kc.loadFromFile(env.kubeconfigPath);
  else kc.loadFromString(env.kubeconfig);
  return { core: kc.makeApiClient(CoreV1Api), net: kc.makeApiClient(NetworkingV1Api) };
}

const svc = (name: string, clusterIP?: string) => ({
  metadata: { name },
  spec: { type: "NodePort", ports: [{ port: 80, nodePort: 30080 }], ...(clusterIP ? { clusterIP } : {}) },
});

describe.each([
  { name: "HTTP", tls: false, auth: false },
  { name: "HTTPS with a token", tls: true, auth: true },
])("envtest over $name", ({ tls, auth }) => {
  let env: TestEnvironment;
  beforeAll(async () => {
    env = await startTestEnvironment({ tls, auth });
  });
  afterAll(() => env?.stop());

  it("gives a kubeconfig client-node accepts, from text and from file", async () => {
    expect(env.url.startsWith(tls ? "https://" : "http://")).toBe(true);
    for (const fromFile of [false, true]) {
      const ns = await clients(env, fromFile).core.listNamespace();
      expect(ns.items.map((n) => n.metadata?.name).sort()).toEqual(["default", "kube-node-lease", "kube-public", "kube-system"]);
    }
  });

  it.skipIf(!kubectl)("gives a kubeconfig real kubectl accepts", async () => {
    const { stdout } = await run(kubectl, ["--kubeconfig", env.kubeconfigPath, "get", "svc", "kubernetes", "-o", "name"], {
      env: { ...process.env, KUBECACHEDIR: `${env.kubeconfigPath}.cache` },
    });
    expect(stdout.trim()).toBe("service/kubernetes");
  });

  it("reset removes user objects, keeps bootstrap ones and releases ClusterIPs and NodePorts", async () => {
    const { core, net } = clients(env);
    await core.createNamespace({ body: { metadata: { name: "t1" } } });
    await core.createNamespacedService({ namespace: "t1", body: svc("web", "10.96.0.50") });
    const def = await core.readNamespace({ name: "default" });
    await core.replaceNamespace({
      name: "default",
      body: { ...def, metadata: { ...def.metadata, labels: { ...def.metadata?.labels, touched: "yes" } } },
    });
    const before = (await net.listIPAddress()).items.map((i) => i.metadata?.name);
    expect(before).toContain("10.96.0.50");

    await env.reset();

    const ns = (await core.listNamespace()).items.map((n) => n.metadata?.name).sort();
    expect(ns).toEqual(["default", "kube-node-lease", "kube-public", "kube-system"]);
    expect((await core.readNamespace({ name: "default" })).metadata?.labels?.["touched"]).toBeUndefined();
    const svcs = (await core.listServiceForAllNamespaces()).items.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`);
    expect(svcs).toEqual(["default/kubernetes"]);
    const ips = (await net.listIPAddress()).items.map((i) => i.metadata?.name);
    expect(ips).not.toContain("10.96.0.50");
    expect(ips).toContain("10.96.0.1");
    expect((await net.listServiceCIDR()).items.map((c) => c.metadata?.name)).toEqual(["kubernetes"]);

    // The same ClusterIP and NodePort are free again, right away.
    await core.createNamespace({ body: { metadata: { name: "t1" } } });
    const again = await core.createNamespacedService({ namespace: "t1", body: svc("web", "10.96.0.50") });
    expect(again.spec?.clusterIP).toBe("10.96.0.50");
    expect(again.spec?.ports?.[0]?.nodePort).toBe(30080);
    await env.reset();
  });

  it("reset with nothing to undo writes nothing", async () => {
    const rv = await env.api.store.currentRevision();
    await env.reset();
    expect(await env.api.store.currentRevision()).toBe(rv);
  });
});
