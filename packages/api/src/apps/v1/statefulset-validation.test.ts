/**
 * Upstream pkg/apis/apps/validation/validation_test.go: TestValidateStatefulSet,
 * TestValidateStatefulSetUpdate, TestValidateStatefulSetStatus, TestValidateControllerRevision;
 * and pkg/apis/apps/v1/defaults_test.go TestSetDefaultStatefulSet.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { setDefaultsStatefulSet } from "./statefulset-defaults.ts";
import type { StatefulSet, StatefulSetSpec } from "./statefulset-types.ts";
import {
  validateControllerRevision,
  validateControllerRevisionUpdate,
  validateStatefulSet,
  validateStatefulSetStatus,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from "./statefulset-validation.ts";

const messages = (errs: ReturnType<typeof validateStatefulSet>): string[] => errs.map(fieldErrorString);

function validStatefulSet(spec: Partial<StatefulSetSpec> = {}, name = "abc"): StatefulSet {
  return setDefaultsStatefulSet({
    metadata: { name, namespace: "default", resourceVersion: "1" },
    spec: {
      selector: { matchLabels: { a: "b" } },
      template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "abc", image: "image" }] } },
      ...spec,
    },
  });
}

describe("setDefaultsStatefulSet (TestSetDefaultStatefulSet)", () => {
  it("defaults the policy, strategy, retention, replicas and history", () => {
    const sts = validStatefulSet();
    expect(sts.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: "OrderedReady",
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
      revisionHistoryLimit: 10,
    });
    expect(sts.spec.template.spec).toMatchObject({ restartPolicy: "Always", dnsPolicy: "ClusterFirst" });
  });

  it("leaves an OnDelete strategy without rollingUpdate, and a set partition alone", () => {
    expect(validStatefulSet({ updateStrategy: { type: "OnDelete" } }).spec.updateStrategy).toEqual({ type: "OnDelete" });
    expect(validStatefulSet({ updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 3 } } }).spec.updateStrategy).toEqual({
      type: "RollingUpdate",
      rollingUpdate: { partition: 3 },
    });
    // A set type with no rollingUpdate is not given one (defaults.go only adds it when the type was empty).
    expect(validStatefulSet({ updateStrategy: { type: "RollingUpdate" } }).spec.updateStrategy).toEqual({ type: "RollingUpdate" });
  });

  it("defaults the volumeClaimTemplates as PersistentVolumeClaims", () => {
    const sts = validStatefulSet({ volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"] } }] });
    expect(sts.spec.volumeClaimTemplates).toEqual([
      { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], volumeMode: "Filesystem" }, status: { phase: "Pending" } },
    ]);
  });
});

describe("validateStatefulSet (TestValidateStatefulSet)", () => {
  it.each<[string, StatefulSet]>([
    ["a defaulted StatefulSet", validStatefulSet()],
    ["Parallel pod management", validStatefulSet({ podManagementPolicy: "Parallel" })],
    ["OnDelete", validStatefulSet({ updateStrategy: { type: "OnDelete" } })],
    ["partition", validStatefulSet({ updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 2 } } })],
    ["ordinals", validStatefulSet({ ordinals: { start: 2 } })],
  ])("accepts %s", (_name, sts) => {
    expect(messages(validateStatefulSet(sts))).toEqual([]);
  });

  it.each<[string, StatefulSet, string[]]>([
    ["a name that is no DNS label", validStatefulSet({}, "abc.def"), ['metadata.name: Invalid value: "abc.def": must not contain dots']],
    ["missing selector", validStatefulSet({ selector: undefined }), ["spec.selector: Required value"]],
    [
      "empty selector",
      validStatefulSet({ selector: {} }),
      [
        "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset",
      ],
    ],
    [
      "selector_doesnt_match",
      validStatefulSet({ selector: { matchLabels: { foo: "bar" } } }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`'],
    ],
    ["negative_replicas", validStatefulSet({ replicas: -1 }), ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]],
    [
      "negative minReadySeconds",
      validStatefulSet({ minReadySeconds: -1 }),
      ["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"],
    ],
    [
      "negative ordinals.start",
      validStatefulSet({ ordinals: { start: -2 } }),
      ["spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0"],
    ],
    [
      "invalid podManagementPolicy",
      validStatefulSet({ podManagementPolicy: "foo" }),
      ["spec.podManagementPolicy: Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'"],
    ],
    [
      "invalid update strategy",
      validStatefulSet({ updateStrategy: { type: "foo" } }),
      [
        "spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"foo\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'",
      ],
    ],
    [
      "rollingUpdate with OnDelete",
      validStatefulSet({ updateStrategy: { type: "OnDelete", rollingUpdate: { partition: 1 } } }),
      [
        "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      ],
    ],
    [
      "negative partition",
      validStatefulSet({ updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: -1 } } }),
      ["spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"],
    ],
    [
      "invalid PVC retention policy",
      validStatefulSet({ persistentVolumeClaimRetentionPolicy: { whenDeleted: "Keep", whenScaled: "Delete" } }),
      ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ],
    [
      "invalid restart policy",
      validStatefulSet({ template: { metadata: { labels: { a: "b" } }, spec: { containers: [], restartPolicy: "OnFailure" } } }),
      ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    [
      "activeDeadlineSeconds",
      validStatefulSet({ template: { metadata: { labels: { a: "b" } }, spec: { containers: [], activeDeadlineSeconds: 10 } } }),
      ["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported"],
    ],
  ])("rejects %s", (_name, sts, want) => {
    expect(messages(validateStatefulSet(sts))).toEqual(want);
  });
});

describe("validateStatefulSetUpdate (TestValidateStatefulSetUpdate)", () => {
  const forbidden =
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

  it.each<[string, Partial<StatefulSetSpec>]>([
    ["replicas", { replicas: 3 }],
    ["updateStrategy", { updateStrategy: { type: "OnDelete" } }],
    ["minReadySeconds", { minReadySeconds: 5 }],
    ["ordinals", { ordinals: { start: 1 } }],
    ["retention policy", { persistentVolumeClaimRetentionPolicy: { whenDeleted: "Delete", whenScaled: "Retain" } }],
    ["template", { template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "abc", image: "image2" }] } } }],
  ])("allows a change of %s", (_name, change) => {
    const old = validStatefulSet();
    expect(messages(validateStatefulSetUpdate(validStatefulSet(change), old))).toEqual([]);
  });

  it.each<[string, Partial<StatefulSetSpec>, string[]]>([
    ["serviceName", { serviceName: "other" }, [forbidden]],
    [
      "selector",
      { selector: { matchLabels: { a: "b", c: "d" } }, template: { metadata: { labels: { a: "b", c: "d" } }, spec: { containers: [] } } },
      [forbidden],
    ],
    ["podManagementPolicy", { podManagementPolicy: "Parallel" }, [forbidden]],
    ["revisionHistoryLimit", { revisionHistoryLimit: 2 }, [forbidden]],
    ["volumeClaimTemplates", { volumeClaimTemplates: [{ metadata: { name: "data" } }] }, [forbidden]],
    ["negative replicas", { replicas: -1 }, ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]],
  ])("forbids %s", (_name, change, want) => {
    const old = validStatefulSet();
    expect(messages(validateStatefulSetUpdate(validStatefulSet(change), old))).toEqual(want);
  });

  it("does not revalidate the name (a DNS subdomain name once allowed can still be updated)", () => {
    const old = validStatefulSet({}, "a.b");
    expect(messages(validateStatefulSetUpdate(validStatefulSet({ replicas: 2 }, "a.b"), old))).toEqual([]);
  });
});

describe("validateStatefulSetStatus (TestValidateStatefulSetStatus)", () => {
  it.each<[string, StatefulSet["status"], string[]]>([
    ["valid", { replicas: 3, readyReplicas: 3, currentReplicas: 2, updatedReplicas: 1, availableReplicas: 3, observedGeneration: 2 }, []],
    [
      "negative replicas (the zero counts are then above it too)",
      { replicas: -1, availableReplicas: 0 },
      [
        "status.replicas: Invalid value: -1: must be greater than or equal to 0",
        ...["readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"].map(
          (f) => `status.${f}: Invalid value: 0: cannot be greater than status.replicas`,
        ),
      ],
    ],
    [
      "readyReplicas above replicas",
      { replicas: 2, readyReplicas: 3, availableReplicas: 0 },
      ["status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas"],
    ],
    [
      "availableReplicas above readyReplicas",
      { replicas: 3, readyReplicas: 2, availableReplicas: 3 },
      ["status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas"],
    ],
    [
      "negative observedGeneration and collisionCount",
      { replicas: 0, availableReplicas: 0, observedGeneration: -1, collisionCount: -1 },
      [
        "status.observedGeneration: Invalid value: -1: must be greater than or equal to 0",
        "status.collisionCount: Invalid value: -1: must be greater than or equal to 0",
      ],
    ],
  ])("%s", (_name, status, want) => {
    expect(messages(validateStatefulSetStatus(status))).toEqual(want);
  });

  it("refuses a decremented collisionCount (TestValidateStatefulSetStatusUpdate)", () => {
    const old = { ...validStatefulSet(), status: { replicas: 0, availableReplicas: 0, collisionCount: 2 } };
    const sts = { ...validStatefulSet(), status: { replicas: 0, availableReplicas: 0, collisionCount: 1 } };
    expect(messages(validateStatefulSetStatusUpdate(sts, old))).toEqual(["status.collisionCount: Invalid value: 1: cannot be decremented"]);
  });
});

describe("validateControllerRevision (TestValidateControllerRevision)", () => {
  const valid = { metadata: { name: "cr", namespace: "default", resourceVersion: "1" }, data: { spec: {} }, revision: 1 };
  it.each<[string, Parameters<typeof validateControllerRevision>[0], string[]]>([
    ["valid", valid, []],
    ["missing data", { ...valid, data: undefined }, ["data: Required value: data is mandatory"]],
    ["negative revision", { ...valid, revision: -1 }, ["revision: Invalid value: -1: must be greater than or equal to 0"]],
    ["missing namespace", { ...valid, metadata: { name: "cr" } }, ["metadata.namespace: Required value"]],
  ])("%s", (_name, cr, want) => {
    expect(messages(validateControllerRevision(cr))).toEqual(want);
  });

  it("keeps data immutable (TestValidateControllerRevisionUpdate)", () => {
    const errs = validateControllerRevisionUpdate({ ...valid, data: { spec: { x: 1 } } }, valid);
    expect(errs.map((e) => [e.type, e.field, e.detail])).toEqual([["Invalid", "data", "field is immutable"]]);
    expect(messages(validateControllerRevisionUpdate({ ...valid, revision: 2 }, valid))).toEqual([]);
  });
});
