/**
 * publisher_test.go TestConfigMapCreation: which namespace and ConfigMap events queue a namespace
 * and what its sync writes, on in-memory informers and a recording client.
 */
import type { ConfigMap, Namespace } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { describe, expect, it } from "vitest";
import { description, descriptionAnnotation, Publisher, rootCACertConfigMapName } from "./publisher.ts";

const ns = "ns";
const caData = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const activeNS: Namespace = { metadata: { name: ns }, status: { phase: "Active" } };
const terminatingNS: Namespace = { metadata: { name: ns, deletionTimestamp: "2026-12-06T00:00:00Z" }, status: { phase: "Terminating" } };
const defaultCM: ConfigMap = {
  metadata: { name: rootCACertConfigMapName, namespace: ns, annotations: { [descriptionAnnotation]: description } },
  data: { "ca.crt": caData },
};
const addFieldCM: ConfigMap = { ...defaultCM, data: { "ca.crt": caData, test: "test" } };
const modifyFieldCM: ConfigMap = { ...defaultCM, data: { "ca.crt": "abc" } };
const noAnnotationCM: ConfigMap = { metadata: { name: rootCACertConfigMapName, namespace: ns }, data: { "ca.crt": caData } };
const otherCM: ConfigMap = { metadata: { name: "other", namespace: ns }, data: { "ca.crt": "abc" } };
const status = (code: number, reason: string, cause?: string) =>
  Object.assign(new Error(reason), {
    code,
    body: { kind: "Status", code, reason, message: reason, details: cause ? { causes: [{ reason: cause }] } : {} },
  });

interface Case {
  existingNamespace?: Namespace;
  existingConfigMaps?: ConfigMap[];
  addedNamespace?: Namespace;
  updatedNamespace?: Namespace;
  deletedConfigMap?: ConfigMap;
  updatedConfigMap?: ConfigMap;
  expectActions: string[];
}

const cases: Record<string, Case> = {
  "create new namespace": { addedNamespace: activeNS, expectActions: ["create"] },
  "delete other configmap": {
    existingNamespace: activeNS,
    existingConfigMaps: [otherCM, defaultCM],
    deletedConfigMap: otherCM,
    expectActions: [],
  },
  "delete ca configmap": {
    existingNamespace: activeNS,
    existingConfigMaps: [otherCM, defaultCM],
    deletedConfigMap: defaultCM,
    expectActions: ["create"],
  },
  "update ca configmap with adding field": {
    existingNamespace: activeNS,
    existingConfigMaps: [defaultCM],
    updatedConfigMap: addFieldCM,
    expectActions: ["update"],
  },
  "update ca configmap with modifying field": {
    existingNamespace: activeNS,
    existingConfigMaps: [defaultCM],
    updatedConfigMap: modifyFieldCM,
    expectActions: ["update"],
  },
  "update with other configmap": {
    existingNamespace: activeNS,
    existingConfigMaps: [defaultCM, otherCM],
    updatedConfigMap: otherCM,
    expectActions: [],
  },
  "update namespace with terminating state": { existingNamespace: activeNS, updatedNamespace: terminatingNS, expectActions: [] },
  "update active namespace without ca configmap": { existingNamespace: activeNS, updatedNamespace: activeNS, expectActions: ["create"] },
  "update ca configmap without annotation": {
    existingNamespace: activeNS,
    existingConfigMaps: [defaultCM],
    updatedConfigMap: noAnnotationCM,
    expectActions: ["update"],
  },
  "update active namespace with ca configmap in place": {
    existingNamespace: activeNS,
    existingConfigMaps: [defaultCM],
    updatedNamespace: activeNS,
    expectActions: [],
  },
};

function setup(c: Case, writes: { action: string; cm: ConfigMap }[]) {
  const namespaces = new MemoryInformer<Namespace>(c.existingNamespace ? [c.existingNamespace] : []);
  const configMaps = new MemoryInformer<ConfigMap>(c.existingConfigMaps ?? []);
  const record = (action: string) => async (namespace: string, cm: ConfigMap) => {
    expect(namespace).toBe(ns);
    writes.push({ action, cm });
  };
  const ctrl = new Publisher({ namespaces, configMaps, rootCA: caData, client: { create: record("create"), update: record("update") } });
  return { ctrl, namespaces, configMaps };
}

/** Runs the queued keys through syncNamespace, as the one worker would. */
async function drain(ctrl: Publisher): Promise<void> {
  while (ctrl.queue.len() > 0) {
    const key = await ctrl.queue.get();
    if (key === undefined) return;
    await ctrl.syncNamespace(key);
    ctrl.queue.done(key);
  }
}

describe("TestConfigMapCreation", () => {
  it.each(Object.entries(cases))("%s", async (_name, c) => {
    const writes: { action: string; cm: ConfigMap }[] = [];
    const { ctrl, namespaces, configMaps } = setup(c, writes);
    // The informers' initial adds are synced first: the case's events alone decide the actions.
    await drain(ctrl);
    writes.length = 0;
    if (c.addedNamespace !== undefined) namespaces.set(c.addedNamespace);
    if (c.updatedNamespace !== undefined) namespaces.set(c.updatedNamespace);
    if (c.deletedConfigMap !== undefined) configMaps.remove(`${ns}/${c.deletedConfigMap.metadata.name}`);
    if (c.updatedConfigMap !== undefined) configMaps.set(c.updatedConfigMap);
    await drain(ctrl);
    expect(writes.map((w) => w.action)).toEqual(c.expectActions);
    // Whatever was written carries exactly the CA and the description (the restored state).
    for (const w of writes) {
      expect(w.cm.data).toEqual({ "ca.crt": caData });
      expect(w.cm.metadata.annotations?.[descriptionAnnotation]).toBe(description);
      expect(w.cm.metadata.name).toBe(rootCACertConfigMapName);
    }
  });
});

describe("syncNamespace", () => {
  it("keeps the other fields and annotations of an edited ConfigMap on update", async () => {
    const writes: { action: string; cm: ConfigMap }[] = [];
    const edited: ConfigMap = { ...modifyFieldCM, metadata: { ...modifyFieldCM.metadata, labels: { a: "b" }, annotations: { x: "y" } } };
    const { ctrl } = setup({ existingNamespace: activeNS, existingConfigMaps: [edited], expectActions: [] }, writes);
    await ctrl.syncNamespace(ns);
    expect(writes[0]?.cm.metadata).toEqual({ ...edited.metadata, annotations: { x: "y", [descriptionAnnotation]: description } });
    expect(edited.metadata.annotations).toEqual({ x: "y" });
  });

  it("does not retry a create refused with NotFound or NamespaceTerminating, and returns other errors", async () => {
    for (const err of [status(404, "NotFound"), status(403, "Forbidden", "NamespaceTerminating")]) {
      const ctrl = new Publisher({
        namespaces: new MemoryInformer<Namespace>([activeNS]),
        configMaps: new MemoryInformer<ConfigMap>(),
        rootCA: caData,
        client: { create: async () => Promise.reject(err), update: async () => undefined },
      });
      await expect(ctrl.syncNamespace(ns)).resolves.toBeUndefined();
    }
    const failing = new Publisher({
      namespaces: new MemoryInformer<Namespace>([activeNS]),
      configMaps: new MemoryInformer<ConfigMap>(),
      rootCA: caData,
      client: { create: async () => Promise.reject(status(500, "boom")), update: async () => undefined },
    });
    await expect(failing.syncNamespace(ns)).rejects.toThrow("boom");
  });
});
