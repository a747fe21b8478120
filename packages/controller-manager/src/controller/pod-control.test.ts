// RealPodControl and GetPodFromTemplate as upstream's controller_utils_test.go checks them
// (TestCreatePodsWithGenerateName, TestDeletePodsAllowsMissing), with the events of each write.
import { describe, expect, it } from "vitest";
import type { OwnerReference, Pod, PodTemplateSpec } from "@servicenet/api";
import { StatusError } from "@servicenet/api/errors";
import { FakeRecorder } from "@servicenet/client/tools/record";
import {
  getPodFromTemplate,
  getPodsPrefix,
  RealPodControl,
  validateControllerRef,
  type ControllerObject,
  type PodClient,
} from "./pod-control.ts";

const owner: ControllerObject = { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: { name: "web", namespace: "default", uid: "u1" } };
const ref: OwnerReference = {
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  name: "web",
  uid: "u1",
  controller: true,
  blockOwnerDeletion: true,
};
const template: PodTemplateSpec = {
  metadata: { labels: { app: "web" }, annotations: { a: "b" }, finalizers: ["f"], name: "ignored" },
  spec: { containers: [{ name: "c", image: "nginx" }] },
};

function control(client: Partial<PodClient> = {}) {
  const recorder = new FakeRecorder();
  const created: Pod[] = [];
  const c = new RealPodControl(
    {
      create: async (_ns, pod) => (created.push(pod), { ...pod, metadata: { ...pod.metadata, name: "web-x7k2p" } }),
      delete: async () => undefined,
      patch: async () => ({}) as Pod,
      ...client,
    },
    recorder,
  );
  return { c, recorder, created };
}

describe("RealPodControl", () => {
  it("creates the template's Pod with a generateName and the controller reference, and records SuccessfulCreate", async () => {
    const { c, recorder, created } = control();
    await c.createPods("default", template, owner, ref);
    expect(created).toEqual([
      {
        metadata: { labels: { app: "web" }, annotations: { a: "b" }, generateName: "web-", finalizers: ["f"], ownerReferences: [ref] },
        spec: { containers: [{ name: "c", image: "nginx" }] },
      },
    ]);
    expect(recorder.events).toEqual(["Normal SuccessfulCreate Created pod: web-x7k2p"]);
  });

  it("records FailedCreate with the refusal, except when the namespace is terminating", async () => {
    const quota = new StatusError(
      "Forbidden",
      'pods "web-abcde" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
    const { c, recorder } = control({ create: () => Promise.reject(quota) });
    await expect(c.createPods("default", template, owner, ref)).rejects.toBe(quota);
    expect(recorder.events).toEqual([`Warning FailedCreate Error creating: ${quota.message}`]);
    const terminating = new StatusError("Forbidden", "unable to create new content in namespace default because it is being terminated", {
      causes: [{ reason: "NamespaceTerminating", message: "namespace default is being terminated", field: "metadata.namespace" }],
    });
    const t = control({ create: () => Promise.reject(terminating) });
    await expect(t.c.createPods("default", template, owner, ref)).rejects.toBe(terminating);
    expect(t.recorder.events).toEqual([]);
  });

  it("refuses a template without labels and a bad controller reference", async () => {
    const { c, created } = control();
    await expect(c.createPods("default", { metadata: {}, spec: { containers: [] } }, owner, ref)).rejects.toThrow(
      "unable to create pods, no labels",
    );
    await expect(c.createPods("default", template, owner, { ...ref, blockOwnerDeletion: false })).rejects.toThrow(
      "controllerRef.BlockOwnerDeletion is not set",
    );
    expect(created).toEqual([]);
  });

  it("deletes with SuccessfulDelete / FailedDelete events; a missing Pod is returned as NotFound without an event", async () => {
    const ok = control();
    await ok.c.deletePod("default", "web-1", owner);
    expect(ok.recorder.events).toEqual(["Normal SuccessfulDelete Deleted pod: web-1"]);
    const gone = control({ delete: () => Promise.reject(new StatusError("NotFound", 'pods "web-1" not found')) });
    await expect(gone.c.deletePod("default", "web-1", owner)).rejects.toThrow('pods "web-1" not found');
    expect(gone.recorder.events).toEqual([]);
    const failing = control({ delete: () => Promise.reject(new StatusError("InternalError", "Internal error occurred: boom")) });
    await expect(failing.c.deletePod("default", "web-1", owner)).rejects.toThrow("unable to delete pods: Internal error occurred: boom");
    expect(failing.recorder.events).toEqual(["Warning FailedDelete Error deleting: Internal error occurred: boom"]);
  });
});

describe("validateControllerRef", () => {
  it.each([
    [undefined, "controllerRef is nil"],
    [{ ...ref, apiVersion: "" }, "controllerRef has empty APIVersion"],
    [{ ...ref, kind: "" }, "controllerRef has empty Kind"],
    [{ ...ref, controller: false }, "controllerRef.Controller is not set to true"],
    [{ ...ref, blockOwnerDeletion: undefined }, "controllerRef.BlockOwnerDeletion is not set"],
  ] as [OwnerReference | undefined, string][])("%j: %s", (r, msg) => {
    expect(() => validateControllerRef(r)).toThrow(msg);
  });
});

describe("getPodsPrefix", () => {
  it("adds a dash unless the name is too long for a prefix", () => {
    expect(getPodsPrefix("web")).toBe("web-");
    expect(getPodsPrefix("a".repeat(253))).toBe("a".repeat(253));
    expect(getPodFromTemplate(template, owner).metadata.ownerReferences).toBeUndefined();
  });
});
