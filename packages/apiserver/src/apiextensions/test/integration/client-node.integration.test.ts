/**
 * @kubernetes/client-node 1.4 against custom resources: the CRD read through
 * ApiextensionsV1Api, its objects through CustomObjectsApi (create, get, list with a selector,
 * JSON patch, replace, the status subresource, delete) and an informer (`makeInformer`) over the
 * custom resource path, as a user's own controller runs them.
 */
import { ApiextensionsV1Api, CustomObjectsApi, KubeConfig, makeInformer, type KubernetesObject } from "@kubernetes/client-node";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { cronTabCRD } from "./openapi-fixtures-testing.ts";

type CronTab = KubernetesObject & { spec?: { cronSpec?: string; replicas?: number }; status?: { replicas?: number } };

const gvp = { group: "stable.example.com", version: "v1", plural: "crontabs" };

describe("@kubernetes/client-node and custom resources", () => {
  let s: TestServer;
  let kc: KubeConfig;
  let custom: CustomObjectsApi;
  beforeAll(async () => {
    s = await startTestServer();
    kc = new KubeConfig();
    kc.loadFromString(s.api.kubeconfig());
    custom = kc.makeApiClient(CustomObjectsApi);
    // Created over HTTP: client-node's model serializer renames the schema's `x-kubernetes-*` keys only from its own property names.
    await createCRD(s, cronTabCRD());
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    const crd = await ext.readCustomResourceDefinition({ name: "crontabs.stable.example.com" });
    expect(crd.spec.versions.map((v) => v.name)).toEqual(["v1", "v1beta1"]);
  });
  afterAll(async () => {
    await s?.close();
  });

  const body = (name: string, replicas: number): CronTab => ({
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name, labels: { app: "cron" } },
    spec: { cronSpec: "*/5 * * * *", replicas },
  });

  it("CustomObjectsApi creates, reads, lists, patches, replaces, writes status and deletes", async () => {
    const ns = { ...gvp, namespace: "default" };
    const created = (await custom.createNamespacedCustomObject({ ...ns, body: body("a", 1) })) as CronTab;
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const read = (await custom.getNamespacedCustomObject({ ...ns, name: "a" })) as CronTab;
    expect(read.spec).toEqual({ cronSpec: "*/5 * * * *", replicas: 1 });
    const list = (await custom.listNamespacedCustomObject({ ...ns, labelSelector: "app=cron" })) as { kind: string; items: CronTab[] };
    expect(list.kind).toBe("CronTabList");
    expect(list.items.map((i) => i.metadata?.name)).toEqual(["a"]);
    const patched = (await custom.patchNamespacedCustomObject({
      ...ns,
      name: "a",
      body: [{ op: "replace", path: "/spec/replicas", value: 2 }],
    })) as CronTab;
    expect(patched.spec?.replicas).toBe(2);
    const replaced = (await custom.replaceNamespacedCustomObject({
      ...ns,
      name: "a",
      body: { ...patched, spec: { ...patched.spec, replicas: 3 } },
    })) as CronTab;
    expect(replaced.spec?.replicas).toBe(3);
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...ns,
      name: "a",
      body: { ...replaced, status: { replicas: 3 } },
    })) as CronTab;
    expect(withStatus.status).toEqual({ replicas: 3 });
    const all = (await custom.listCustomObjectForAllNamespaces(gvp)) as { items: CronTab[] };
    expect(all.items.map((i) => i.metadata?.name)).toEqual(["a"]);
    await custom.deleteNamespacedCustomObject({ ...ns, name: "a" });
    await expect(custom.getNamespacedCustomObject({ ...ns, name: "a" })).rejects.toMatchObject({ code: 404 });
  });

  it("an informer over the custom resource path sees ADDED, MODIFIED and DELETED", async () => {
    const ns = { ...gvp, namespace: "default" };
    const path = "/apis/stable.example.com/v1/namespaces/default/crontabs";
    const informer = makeInformer<CronTab>(kc, path, async () => (await custom.listNamespacedCustomObject(ns)) as never);
    const seen: string[] = [];
    informer.on("add", (o) => seen.push(`ADDED ${o.metadata?.name}`));
    informer.on("update", (o) => seen.push(`MODIFIED ${o.metadata?.name} ${o.spec?.replicas}`));
    informer.on("delete", (o) => seen.push(`DELETED ${o.metadata?.name}`));
    await informer.start();
    try {
      await custom.createNamespacedCustomObject({ ...ns, body: body("inf", 1) });
      await eventually(() => seen.includes("ADDED inf"));
      await custom.patchNamespacedCustomObject({ ...ns, name: "inf", body: [{ op: "replace", path: "/spec/replicas", value: 4 }] });
      await eventually(() => seen.includes("MODIFIED inf 4"));
      expect(informer.list("default").map((o) => o.spec?.replicas)).toEqual([4]);
      await custom.deleteNamespacedCustomObject({ ...ns, name: "inf" });
      await eventually(() => seen.includes("DELETED inf"));
      expect(seen).toEqual(["ADDED inf", "MODIFIED inf 4", "DELETED inf"]);
    } finally {
      await informer.stop();
    }
  });
});
