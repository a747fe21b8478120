/**
 * serviceaccounts_controller_test.go TestServiceAccountCreation: which events queue a namespace
 * and which ServiceAccounts its sync creates, on in-memory informers and a recording client.
 */
import type { Namespace, ServiceAccount } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { describe, expect, it } from "vitest";
import { ServiceAccountsController, type ServiceAccountClient } from "./serviceaccounts-controller.ts";

const ns = "ns";
const activeNS: Namespace = { metadata: { name: ns }, status: { phase: "Active" } };
const terminatingNS: Namespace = { metadata: { name: ns, deletionTimestamp: "2026-12-06T00:00:00Z" }, status: { phase: "Terminating" } };
const sa = (name: string): ServiceAccount => ({ metadata: { name, namespace: ns } });
const status = (code: number, reason: string, cause?: string) =>
  Object.assign(new Error(reason), {
    code,
    body: { kind: "Status", code, reason, message: reason, details: cause ? { causes: [{ reason: cause }] } : {} },
  });

interface Case {
  existingNamespace?: Namespace;
  existingServiceAccounts?: ServiceAccount[];
  addedNamespace?: Namespace;
  updatedNamespace?: Namespace;
  deletedServiceAccount?: ServiceAccount;
  expectCreated: string[];
}

const cases: Record<string, Case> = {
  "new active namespace missing serviceaccounts": { addedNamespace: activeNS, expectCreated: ["default", "other"] },
  "new active namespace missing serviceaccount": {
    existingServiceAccounts: [sa("other")],
    addedNamespace: activeNS,
    expectCreated: ["default"],
  },
  "new active namespace existing serviceaccounts": {
    existingServiceAccounts: [sa("default"), sa("other")],
    addedNamespace: activeNS,
    expectCreated: [],
  },
  "updated active namespace missing serviceaccounts": { updatedNamespace: activeNS, expectCreated: ["default", "other"] },
  "updated active namespace existing serviceaccounts": {
    existingServiceAccounts: [sa("default"), sa("other")],
    updatedNamespace: activeNS,
    expectCreated: [],
  },
  "new terminating namespace": { addedNamespace: terminatingNS, expectCreated: [] },
  "updated terminating namespace": { updatedNamespace: terminatingNS, expectCreated: [] },
  "deleted serviceaccount without namespace": { deletedServiceAccount: sa("default"), expectCreated: [] },
  "deleted serviceaccount with active namespace": {
    existingServiceAccounts: [sa("other")],
    existingNamespace: activeNS,
    deletedServiceAccount: sa("default"),
    expectCreated: ["default"],
  },
  "deleted serviceaccount with terminating namespace": {
    existingNamespace: terminatingNS,
    deletedServiceAccount: sa("default"),
    expectCreated: [],
  },
  "deleted unwatched serviceaccount with active namespace": {
    existingServiceAccounts: [sa("default"), sa("other")],
    existingNamespace: activeNS,
    deletedServiceAccount: sa("unwatched"),
    expectCreated: [],
  },
};

function setup(c: Case, create: ServiceAccountClient["create"]) {
  const namespaces = new MemoryInformer<Namespace>(c.existingNamespace ? [c.existingNamespace] : []);
  const serviceAccounts = new MemoryInformer<ServiceAccount>(c.existingServiceAccounts ?? []);
  const ctrl = new ServiceAccountsController({
    namespaces,
    serviceAccounts,
    client: { create },
    serviceAccountsToEnsure: ["default", "other"],
  });
  return { ctrl, namespaces, serviceAccounts };
}

/** Runs the queued keys through syncNamespace, as one worker would. */
async function drain(ctrl: ServiceAccountsController): Promise<void> {
  while (ctrl.queue.len() > 0) {
    const key = await ctrl.queue.get();
    if (key === undefined) return;
    await ctrl.syncNamespace(key);
    ctrl.queue.done(key);
  }
}

describe("TestServiceAccountCreation", () => {
  it.each(Object.entries(cases))("%s", async (_name, c) => {
    const created: string[] = [];
    const { ctrl, namespaces, serviceAccounts } = setup(c, async (namespace, obj) => {
      expect(namespace).toBe(ns);
      created.push(obj.metadata.name ?? "");
    });
    const ns0 = c.addedNamespace ?? c.updatedNamespace;
    if (ns0 !== undefined) namespaces.set(ns0);
    if (c.updatedNamespace !== undefined) namespaces.set(c.updatedNamespace);
    if (c.deletedServiceAccount !== undefined) {
      serviceAccounts.set(c.deletedServiceAccount);
      serviceAccounts.remove(`${ns}/${c.deletedServiceAccount.metadata.name}`);
    }
    await drain(ctrl);
    expect(created).toEqual(c.expectCreated);
  });
});

describe("syncNamespace errors", () => {
  it("ignores AlreadyExists and the NamespaceTerminating cause, and returns the others together", async () => {
    const errs: Record<string, Error> = {
      default: status(409, "AlreadyExists"),
      other: status(403, "Forbidden", "NamespaceTerminating"),
    };
    const quiet = setup({ existingNamespace: activeNS, expectCreated: [] }, async (_ns, o) => {
      throw errs[o.metadata.name ?? ""] ?? new Error("unexpected create");
    });
    await expect(quiet.ctrl.syncNamespace(ns)).resolves.toBeUndefined();
    const failing = setup({ existingNamespace: activeNS, expectCreated: [] }, async (_ns, o) => {
      throw status(500, `boom ${o.metadata.name}`);
    });
    await expect(failing.ctrl.syncNamespace(ns)).rejects.toThrow("boom default, boom other");
  });

  it("ensures only `default` unless told otherwise", async () => {
    const created: string[] = [];
    const namespaces = new MemoryInformer<Namespace>([activeNS]);
    const ctrl = new ServiceAccountsController({
      namespaces,
      serviceAccounts: new MemoryInformer<ServiceAccount>(),
      client: { create: async (_ns, o) => void created.push(o.metadata.name ?? "") },
    });
    await ctrl.syncNamespace(ns);
    expect(created).toEqual(["default"]);
  });
});
