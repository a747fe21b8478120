/** NamespaceLifecycle, named after upstream's plugin/pkg/admission/namespace/lifecycle/admission_test.go. */
import { StatusError } from "@servicenet/api";
import type { KubeObject } from "../../../../storage/index.ts";
import { describe, expect, it } from "vitest";
import { Lifecycle, type Attributes } from "./admission.ts";

const namespace = (name: string, phase: "Active" | "Terminating"): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, ...(phase === "Terminating" ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}) },
  status: { phase },
});

/** A Lifecycle over a fixed cache and a fixed "storage", counting live lookups; `now` is settable. */
function setup(cached: KubeObject[], stored: KubeObject[] = cached) {
  const clock = { t: 0 };
  let lookups = 0;
  const byName = (list: KubeObject[], n: string) => list.find((o) => o.metadata.name === n);
  const plugin = new Lifecycle({
    cache: { get: (n) => byName(cached, n), list: () => cached, hasSynced: () => true },
    getNamespace: (n) => {
      lookups++;
      const o = byName(stored, n);
      return o ? Promise.resolve(o) : Promise.reject(StatusError.notFound({ group: "", resource: "namespaces" }, n));
    },
    now: () => clock.t,
  });
  return { plugin, clock, lookups: () => lookups };
}

const pod = (ns: string, operation: Attributes["operation"] = "CREATE", name = "123"): Attributes => ({
  operation,
  namespace: ns,
  name: operation === "CREATE" ? "" : name,
  resource: { group: "", resource: "pods" },
  object: { apiVersion: "v1", kind: "Pod", metadata: { name, namespace: ns } },
});

describe("NamespaceLifecycle admission", () => {
  it("TestAdmissionNamespaceDoesNotExist: a create in a missing namespace is the namespace's NotFound", async () => {
    const { plugin, lookups } = setup([]);
    await expect(plugin.admit(pod("test"))).rejects.toMatchObject({ code: 404, message: 'namespaces "test" not found' });
    expect(lookups()).toBe(1);
    await expect(plugin.admit(pod("test", "UPDATE"))).rejects.toMatchObject({ code: 404 });
    // Deletes are always allowed.
    await expect(plugin.admit(pod("test", "DELETE"))).resolves.toBeUndefined();
  });

  it("TestAdmissionNamespaceActive: every operation is allowed, from the cache alone", async () => {
    const { plugin, lookups } = setup([namespace("test", "Active")]);
    for (const op of ["CREATE", "UPDATE", "DELETE"] as const) await expect(plugin.admit(pod("test", op))).resolves.toBeUndefined();
    expect(lookups()).toBe(0);
  });

  it("TestAdmissionNamespaceTerminating: creates are Forbidden with the NamespaceTerminating cause; the rest is allowed", async () => {
    const { plugin } = setup([namespace("test", "Terminating")]);
    const err = await plugin.admit(pod("test")).then(
      () => undefined,
      (e: unknown) => e as StatusError,
    );
    expect(err?.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'pods "123" is forbidden: unable to create new content in namespace test because it is being terminated',
      reason: "Forbidden",
      details: {
        name: "123",
        kind: "pods",
        causes: [{ reason: "NamespaceTerminating", message: "namespace test is being terminated", field: "metadata.namespace" }],
      },
      code: 403,
    });
    await expect(plugin.admit(pod("test", "UPDATE"))).resolves.toBeUndefined();
    await expect(plugin.admit(pod("test", "DELETE"))).resolves.toBeUndefined();
    // Deleting the namespace itself is allowed; deleting an immortal one is not.
    expect(() => plugin.admitDelete("test")).not.toThrow();
    for (const name of ["default", "kube-system", "kube-public"])
      expect(() => plugin.admitDelete(name)).toThrow(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
  });

  it("names the object by generateName before a name exists, else Unknown", async () => {
    const { plugin } = setup([namespace("test", "Terminating")]);
    const generated = { ...pod("test"), object: { apiVersion: "v1", kind: "Pod", metadata: { generateName: "web-" } } };
    await expect(plugin.admit(generated)).rejects.toThrow('pods "web-" is forbidden');
    await expect(plugin.admit({ ...pod("test"), object: { apiVersion: "v1", kind: "Pod", metadata: {} } })).rejects.toThrow(
      'pods "Unknown" is forbidden',
    );
  });

  it("TestAdmissionNamespaceForceLiveLookup: a namespace deleted here is read live until the TTL passes", async () => {
    // The cache still says Active; storage already says Terminating.
    const { plugin, clock, lookups } = setup([namespace("test", "Active")], [namespace("test", "Terminating")]);
    await expect(plugin.admit(pod("test"))).resolves.toBeUndefined();
    expect(lookups()).toBe(0);
    plugin.admitDelete("test");
    await expect(plugin.admit(pod("test"))).rejects.toMatchObject({ code: 403 });
    expect(lookups()).toBe(1);
    clock.t = 30_000;
    await expect(plugin.admit(pod("test"))).resolves.toBeUndefined();
    expect(lookups()).toBe(1);
  });
});
