/** @kubernetes/client-node 1.4 against the server: typed CoreV1Api calls and an informer. */
import { CoreV1Api, KubeConfig, makeInformer, type V1Service } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

describe("@kubernetes/client-node", () => {
  let s: TestServer;
  let kc: KubeConfig;
  let core: CoreV1Api;
  beforeAll(async () => {
    s = await startTestServer();
    kc = new KubeConfig();
    kc.loadFromString(s.api.kubeconfig());
    core = kc.makeApiClient(CoreV1Api);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("creates, lists, reads, replaces and deletes a Service", async () => {
    const body: V1Service = {
      metadata: { name: "cn", labels: { app: "cn" } },
      spec: { selector: { app: "cn" }, ports: [{ port: 80, targetPort: 8080 }] },
    };
    const created = await core.createNamespacedService({ namespace: "default", body });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.spec?.ports?.[0]).toMatchObject({ port: 80, protocol: "TCP", targetPort: 8080 });
    const list = await core.listNamespacedService({ namespace: "default", labelSelector: "app=cn" });
    expect(list.items.map((i) => i.metadata?.name)).toEqual(["cn"]);
    const read = await core.readNamespacedService({ name: "cn", namespace: "default" });
    read.spec!.ports![0]!.port = 81;
    const replaced = await core.replaceNamespacedService({ name: "cn", namespace: "default", body: read });
    expect(replaced.spec?.ports?.[0]?.port).toBe(81);
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));
    await core.deleteNamespacedService({ name: "cn", namespace: "default" });
    await expect(core.readNamespacedService({ name: "cn", namespace: "default" })).rejects.toMatchObject({ code: 404 });
  });

  it("runs an informer that sees ADDED, MODIFIED and DELETED", async () => {
    const informer = makeInformer(kc, "/api/v1/namespaces/default/services", () => core.listNamespacedService({ namespace: "default" }));
    const seen: string[] = [];
    const wait = (pred: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const t0 = Date.now();
        const tick = (): void => {
          if (pred()) resolve();
          else if (Date.now() - t0 > 5000) reject(new Error(`timed out; saw ${seen.join(",")}`));
          else setTimeout(tick, 20);
        };
        tick();
      });
    informer.on("add", (o) => seen.push(`ADDED ${o.metadata?.name}`));
    informer.on("update", (o) => seen.push(`MODIFIED ${o.metadata?.name}`));
    informer.on("delete", (o) => seen.push(`DELETED ${o.metadata?.name}`));
    await informer.start();
    try {
      await core.createNamespacedService({ namespace: "default", body: { metadata: { name: "inf" }, spec: { ports: [{ port: 80 }] } } });
      await wait(() => seen.includes("ADDED inf"));
      await core.patchNamespacedService({
        name: "inf",
        namespace: "default",
        body: [{ op: "add", path: "/metadata/labels", value: { x: "y" } }],
      });
      await wait(() => seen.includes("MODIFIED inf"));
      await core.deleteNamespacedService({ name: "inf", namespace: "default" });
      await wait(() => seen.includes("DELETED inf"));
      expect(seen.filter((e) => e.endsWith(" inf"))).toEqual(["ADDED inf", "MODIFIED inf", "DELETED inf"]);
    } finally {
      await informer.stop();
    }
  });
});
