// plugin/pkg/admission/serviceaccount/admission_test.go, the tests of the projected token era.
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import type { Attributes } from "../../../../admission/attributes.ts";
import type { KubeObject } from "../../../../storage/index.ts";
import { ServiceAccountPlugin } from "./admission.ts";
import { tokenVolumeSource } from "./token-volume.ts";

type Obj = Record<string, unknown>;
const ns = "myns";

function plugin(sas: Obj[] = [], live: Obj[] = []) {
  const key = (o: Obj) => {
    const m = o["metadata"] as { name: string; namespace: string };
    return `${m.namespace}/${m.name}`;
  };
  const cache = new Map(sas.map((s) => [key(s), s as unknown as KubeObject]));
  const lookups: string[] = [];
  const p = new ServiceAccountPlugin({
    serviceAccounts: { get: (k) => cache.get(k), list: () => [...cache.values()], hasSynced: () => true },
    getServiceAccount: async (n, name) => {
      lookups.push(`${n}/${name}`);
      return (live.find((s) => key(s) === `${n}/${name}`) as unknown as KubeObject | undefined) ?? null;
    },
    generateName: (base) => `${base}abcde`,
    sleep: async () => {},
  });
  return { p, lookups };
}
const sa = (name = "default", extra: Obj = {}): Obj => ({ ...extra, metadata: { name, namespace: ns, ...(extra["metadata"] ?? {}) } });

function attrs(spec: Obj, over: Partial<Attributes> = {}, meta: Obj = {}): Attributes {
  return {
    operation: "CREATE",
    name: "",
    namespace: ns,
    resource: { group: "", version: "v1", resource: "pods" },
    subresource: "",
    kind: { group: "", version: "v1", kind: "Pod" },
    object: { apiVersion: "v1", kind: "Pod", metadata: { name: "mypod", namespace: ns, ...meta }, spec },
    dryRun: false,
    userInfo: { username: "u" },
    ...over,
  };
}
const specOf = (a: Attributes) => (a.object as unknown as { spec: Obj }).spec;
const admit = async (p: ServiceAccountPlugin, a: Attributes) => {
  await p.admit(a);
};
const forbidden = async (run: Promise<void>, message: string) => {
  const e = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StatusError);
  expect((e as StatusError).status.code).toBe(403);
  expect((e as StatusError).status.message).toBe(message);
};

describe("ServiceAccount admission", () => {
  it("TestIgnoresNonCreate: an update of a Pod is not mutated", async () => {
    const { p } = plugin();
    const a = attrs({ containers: [{ name: "c" }] }, { operation: "UPDATE" });
    await admit(p, a);
    expect(specOf(a)["serviceAccountName"]).toBeUndefined();
    expect(p.handles("DELETE")).toBe(false);
    expect(p.handles("CONNECT")).toBe(false);
  });

  it("TestIgnoresNonPodResource and subresources other than ephemeralcontainers", async () => {
    const { p } = plugin();
    for (const over of [
      { resource: { group: "", version: "v1", resource: "services" } },
      { subresource: "status" },
      { subresource: "binding" },
    ]) {
      const a = attrs({ containers: [{ name: "c" }] }, over);
      await admit(p, a);
      expect(specOf(a)["serviceAccountName"]).toBeUndefined();
    }
  });

  it("TestIgnoresNilObject", async () => {
    const { p } = plugin();
    const a = attrs({});
    delete a.object;
    await expect(p.admit(a)).resolves.toBeUndefined();
  });

  it("TestIgnoresMirrorPod", async () => {
    const { p } = plugin();
    const a = attrs({ containers: [{ name: "c" }] }, {}, { annotations: { "kubernetes.io/config.mirror": "true" } });
    await admit(p, a);
    expect(specOf(a)).toEqual({ containers: [{ name: "c" }] });
  });

  it.each([
    ["TestRejectsMirrorPodWithServiceAccount", { serviceAccountName: "default" }, "a mirror pod may not reference service accounts"],
    [
      "TestRejectsMirrorPodWithSecretVolumes",
      { volumes: [{ name: "v", secret: { secretName: "mysecret" } }] },
      "a mirror pod may not reference secrets",
    ],
    [
      "TestRejectsMirrorPodWithSecretEnv",
      { containers: [{ name: "c", env: [{ name: "E", valueFrom: { secretKeyRef: { name: "s", key: "k" } } }] }] },
      "a mirror pod may not reference secrets",
    ],
    [
      "TestRejectsMirrorPodWithServiceAccountTokenVolumeProjections",
      { volumes: [{ name: "v", projected: { sources: [{ serviceAccountToken: {} }] } }] },
      "a mirror pod may not use ServiceAccountToken volume projections",
    ],
  ])("%s", async (_n, spec, message) => {
    const { p } = plugin();
    const a = attrs(spec, {}, { annotations: { "kubernetes.io/config.mirror": "true" } });
    await forbidden(p.admit(a), `pods "mypod" is forbidden: ${message}`);
  });

  it("TestAssignsDefaultServiceAccountAndBoundTokenWithNoSecretTokens", async () => {
    const { p } = plugin([sa()]);
    const a = attrs({ containers: [{ name: "c" }], initContainers: [{ name: "i" }], ephemeralContainers: [{ name: "e" }] });
    await admit(p, a);
    const mount = { name: "kube-api-access-abcde", readOnly: true, mountPath: "/var/run/secrets/kubernetes.io/serviceaccount" };
    expect(specOf(a)).toEqual({
      containers: [{ name: "c", volumeMounts: [mount] }],
      initContainers: [{ name: "i", volumeMounts: [mount] }],
      ephemeralContainers: [{ name: "e" }],
      serviceAccountName: "default",
      volumes: [{ name: "kube-api-access-abcde", projected: tokenVolumeSource() }],
    });
    expect(tokenVolumeSource()).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
      ],
      defaultMode: 420,
    });
  });

  it("TestFetchesUncachedServiceAccount", async () => {
    const { p, lookups } = plugin([], [sa()]);
    const a = attrs({ containers: [{ name: "c" }] });
    await admit(p, a);
    expect(specOf(a)["serviceAccountName"]).toBe("default");
    expect(lookups[0]).toBe(`${ns}/default`);
  });

  it("TestDeniesInvalidServiceAccount, retrying the default one ten times", async () => {
    const { p, lookups } = plugin();
    await forbidden(
      p.admit(attrs({ containers: [{ name: "c" }] })),
      `pods "mypod" is forbidden: error looking up service account ${ns}/default: serviceaccount "default" not found`,
    );
    expect(lookups).toHaveLength(10);
    const other = plugin();
    await forbidden(
      other.p.admit(attrs({ containers: [{ name: "c" }], serviceAccountName: "foo" })),
      `pods "mypod" is forbidden: error looking up service account ${ns}/foo: serviceaccount "foo" not found`,
    );
    expect(other.lookups).toHaveLength(1);
  });

  it("TestAutomountsAPIToken: a named ServiceAccount gets the token too, once per container", async () => {
    const { p } = plugin([sa("my-sa")]);
    const a = attrs({ serviceAccountName: "my-sa", containers: [{ name: "a" }, { name: "b" }] });
    await admit(p, a);
    const s = specOf(a);
    expect((s["volumes"] as Obj[]).map((v) => v["name"])).toEqual(["kube-api-access-abcde"]);
    expect((s["containers"] as Obj[]).map((c) => (c["volumeMounts"] as Obj[]).length)).toEqual([1, 1]);
  });

  it("TestRespectsExistingMount: a container with a mount at the path keeps it; a kube-api-access volume is reused", async () => {
    const { p } = plugin([sa()]);
    const own = { name: "my-mount", mountPath: "/var/run/secrets/kubernetes.io/serviceaccount" };
    const a = attrs({ containers: [{ name: "c", volumeMounts: [own] }] });
    await admit(p, a);
    expect(specOf(a)["volumes"]).toBeUndefined();
    expect((specOf(a)["containers"] as Obj[])[0]!["volumeMounts"]).toEqual([own]);
    const b = attrs({ containers: [{ name: "c" }], volumes: [{ name: "kube-api-access-zzzzz", projected: {} }] });
    await admit(p, b);
    expect(specOf(b)["volumes"]).toEqual([{ name: "kube-api-access-zzzzz", projected: {} }]);
    expect(((specOf(b)["containers"] as Obj[])[0]!["volumeMounts"] as Obj[])[0]!["name"]).toBe("kube-api-access-zzzzz");
  });

  // TestAutomountServiceAccountToken (the pod's preference wins, then the ServiceAccount's).
  it.each([
    [undefined, undefined, true],
    [undefined, false, false],
    [undefined, true, true],
    [false, true, false],
    [true, false, true],
  ])("pod automount %s, ServiceAccount automount %s: mounted %s", async (podPref, saPref, mounted) => {
    const { p } = plugin([sa("default", saPref === undefined ? {} : { automountServiceAccountToken: saPref })]);
    const a = attrs({ containers: [{ name: "c" }], ...(podPref === undefined ? {} : { automountServiceAccountToken: podPref }) });
    await admit(p, a);
    expect(specOf(a)["volumes"] !== undefined).toBe(mounted);
  });

  it("TestAddImagePullSecrets and TestDoNotAddImagePullSecrets", async () => {
    const { p } = plugin([sa("default", { imagePullSecrets: [{ name: "foo" }, { name: "bar" }] })]);
    const a = attrs({ containers: [{ name: "c" }] });
    await admit(p, a);
    expect(specOf(a)["imagePullSecrets"]).toEqual([{ name: "foo" }, { name: "bar" }]);
    const b = attrs({ containers: [{ name: "c" }], imagePullSecrets: [{ name: "foo" }] });
    await admit(p, b);
    expect(specOf(b)["imagePullSecrets"]).toEqual([{ name: "foo" }]);
  });

  const enforcing = (extra: Obj = {}) =>
    sa("default", {
      metadata: { annotations: { "kubernetes.io/enforce-mountable-secrets": "true" } },
      secrets: [{ name: "foo" }],
      ...extra,
    });
  it.each([
    ["TestAllowsReferencedSecret (volume)", { volumes: [{ name: "v", secret: { secretName: "foo" } }] }, undefined],
    [
      "TestRejectsUnreferencedSecretVolumes",
      { volumes: [{ name: "v", secret: { secretName: "bar" } }] },
      'volume with secret.secretName="bar" is not allowed because service account default does not reference that secret',
    ],
    [
      "TestRejectsUnreferencedSecretVolumes (init container env)",
      { initContainers: [{ name: "i", env: [{ name: "E", valueFrom: { secretKeyRef: { name: "bar", key: "k" } } }] }] },
      'init container i with envVar E referencing secret.secretName="bar" is not allowed because service account default does not reference that secret',
    ],
    [
      "TestRejectsUnreferencedSecretVolumes (container envFrom)",
      { containers: [{ name: "c", envFrom: [{ secretRef: { name: "bar" } }] }] },
      'container c with envFrom referencing secret.secretName="bar" is not allowed because service account default does not reference that secret',
    ],
    [
      "TestRejectsUnreferencedImagePullSecrets",
      { imagePullSecrets: [{ name: "bar" }] },
      'imagePullSecrets[0].name="bar" is not allowed because service account default does not reference that imagePullSecret',
    ],
  ])("%s", async (_n, spec, message) => {
    const { p } = plugin([enforcing()]);
    const run = p.admit(attrs({ containers: [{ name: "c" }], ...(spec as Obj) }));
    if (message === undefined) await expect(run).resolves.toBeUndefined();
    else await forbidden(run, `pods "mypod" is forbidden: ${message}`);
  });

  it("TestAllowUnreferencedSecretVolumesForPermissiveSAs", async () => {
    const { p } = plugin([sa()]);
    await expect(
      p.admit(attrs({ containers: [{ name: "c" }], volumes: [{ name: "v", secret: { secretName: "bar" } }] })),
    ).resolves.toBeUndefined();
  });

  it("an ephemeralcontainers update checks the ServiceAccount and the new containers' secrets", async () => {
    const { p } = plugin([enforcing()]);
    const spec = {
      serviceAccountName: "default",
      containers: [{ name: "c" }],
      ephemeralContainers: [{ name: "dbg", envFrom: [{ secretRef: { name: "bar" } }] }],
    };
    await expect(p.validate(attrs(spec, { operation: "UPDATE", subresource: "ephemeralcontainers" }))).rejects.toThrow(
      'ephemeral container dbg with envFrom referencing secret.secretName="bar" is not allowed because service account default does not reference that secret',
    );
    await forbidden(
      p.validate(attrs({ containers: [{ name: "c" }] }, { operation: "UPDATE", subresource: "ephemeralcontainers" })),
      `pods "mypod" is forbidden: no service account specified for pod ${ns}/mypod`,
    );
  });
});
