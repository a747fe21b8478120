/** pkg/registry/rbac/helpers_test.go TestIsOnlyMutatingGCFields. */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../storage/index.ts";
import { isOnlyMutatingGCFields } from "./helpers.ts";

const newPod = (): KubeObject => ({ apiVersion: "v1", kind: "Pod", metadata: { annotations: {}, name: "foo", ownerReferences: [] } });
const owner = { apiVersion: "v1", kind: "X", name: "foo", uid: "u" };

describe("TestIsOnlyMutatingGCFields", () => {
  it.each<[string, () => KubeObject, () => KubeObject | null, boolean]>([
    ["same", newPod, newPod, true],
    [
      "different managedFields",
      newPod,
      () => ({ ...newPod(), metadata: { ...newPod().metadata, managedFields: [{ manager: "manager" }] } }),
      true,
    ],
    ["only annotations", () => ({ ...newPod(), metadata: { ...newPod().metadata, annotations: { foo: "bar" } } }), newPod, false],
    ["only other", () => ({ ...newPod(), spec: { restartPolicy: "Always" } }), newPod, false],
    ["only ownerRef", () => ({ ...newPod(), metadata: { ...newPod().metadata, ownerReferences: [owner] } }), newPod, true],
    [
      "ownerRef and finalizer",
      () => ({ ...newPod(), metadata: { ...newPod().metadata, ownerReferences: [owner], finalizers: ["final"] } }),
      newPod,
      true,
    ],
    [
      "and annotations",
      () => ({ ...newPod(), metadata: { ...newPod().metadata, ownerReferences: [owner], annotations: { foo: "bar" } } }),
      newPod,
      false,
    ],
    [
      "and other",
      () => ({ ...newPod(), metadata: { ...newPod().metadata, ownerReferences: [owner] }, spec: { restartPolicy: "Always" } }),
      newPod,
      false,
    ],
    [
      "and nil",
      () => ({ ...newPod(), metadata: { ...newPod().metadata, ownerReferences: [owner] }, spec: { restartPolicy: "Always" } }),
      () => null,
      false,
    ],
  ])("%s", (_name, obj, old, expected) => {
    expect(isOnlyMutatingGCFields(obj(), old())).toBe(expected);
  });
});
