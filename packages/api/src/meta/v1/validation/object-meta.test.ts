import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import type { ObjectMeta } from "../object-meta.ts";
import { nameIsDNS1035Label } from "./name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "./object-meta.ts";

const base = (): ObjectMeta => ({ name: "web", namespace: "default", labels: {}, annotations: {}, resourceVersion: "1" });

describe("validateObjectMeta", () => {
  it.each<[string, (m: ObjectMeta) => void, boolean, string[]]>([
    ["valid", () => {}, true, []],
    ["missing name", (m) => delete m.name, true, ["metadata.name: Required value: name or generateName is required"]],
    ["missing namespace", (m) => delete m.namespace, true, ["metadata.namespace: Required value"]],
    ["namespace on cluster-scoped", () => {}, false, ["metadata.namespace: Forbidden: not allowed on this type"]],
    [
      "negative generation",
      (m) => (m.generation = -1),
      true,
      ["metadata.generation: Invalid value: -1: must be greater than or equal to 0"],
    ],
    [
      "bad label value",
      (m) => (m.labels = { a: "-x" }),
      true,
      [expect.stringContaining('metadata.labels: Invalid value: "-x": a valid label must be')],
    ],
    [
      "bad annotation key",
      (m) => (m.annotations = { "a=b": "" }),
      true,
      [expect.stringContaining('metadata.annotations: Invalid value: "a=b": name part must consist')],
    ],
    [
      "both GC finalizers",
      (m) => (m.finalizers = ["orphan", "foregroundDeletion"]),
      true,
      [expect.stringContaining("finalizer orphan and foregroundDeletion cannot be both set")],
    ],
  ])("%s", (_n, tweak, namespaced, want) => {
    const m = base();
    tweak(m);
    expect(validateObjectMeta(m, { namespaced }).map(fieldErrorString)).toEqual(want);
  });

  it("uses the kind's name rule for name and generateName", () => {
    const m = { ...base(), name: "1web", generateName: "9ab-" };
    const errs = validateObjectMeta(m, { namespaced: true, nameValidator: nameIsDNS1035Label });
    expect(errs.map((e) => e.field)).toEqual(["metadata.generateName", "metadata.name"]);
  });
});

describe("validateObjectMetaUpdate", () => {
  it.each<[string, (n: ObjectMeta, o: ObjectMeta) => void, string[]]>([
    ["no change", () => {}, []],
    ["rename", (n) => (n.name = "web2"), ['metadata.name: Invalid value: "web2": field is immutable']],
    ["namespace", (n) => (n.namespace = "x"), ['metadata.namespace: Invalid value: "x": field is immutable']],
    ["uid", (n, o) => ((o.uid = "a"), (n.uid = "b")), ['metadata.uid: Invalid value: "b": field is immutable']],
    [
      "creationTimestamp",
      (n, o) => ((o.creationTimestamp = "2024-01-01T00:00:00Z"), (n.creationTimestamp = "2024-01-02T00:00:00Z")),
      ['metadata.creationTimestamp: Invalid value: "2024-01-02T00:00:00Z": field is immutable'],
    ],
    [
      "no resourceVersion",
      (n) => delete n.resourceVersion,
      ['metadata.resourceVersion: Invalid value: "": must be specified for an update'],
    ],
    [
      "generation decremented",
      (n, o) => ((o.generation = 2), (n.generation = 1)),
      ["metadata.generation: Invalid value: 1: must not be decremented"],
    ],
    [
      "new finalizer while deleting",
      (n, o) => ((o.deletionTimestamp = n.deletionTimestamp = "2024-01-01T00:00:00Z"), (n.finalizers = ["x/y"])),
      [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x/y"}',
      ],
    ],
  ])("%s", (_n, tweak, want) => {
    const n = base();
    const o = base();
    tweak(n, o);
    expect(validateObjectMetaUpdate(n, o).map(fieldErrorString)).toEqual(want);
  });
});
