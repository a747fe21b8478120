/**
 * Upstream pkg/apis/apps/validation/validation_test.go: TestValidateDaemonSet,
 * TestValidateDaemonSetUpdate, TestValidateDaemonSetStatusUpdate, TestValidateRollingUpdateDaemonSet;
 * pkg/apis/apps/v1/defaults_test.go TestSetDefaultDaemonSetSpec.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { setDefaultsDaemonSet } from "./daemonset-defaults.ts";
import type { DaemonSet, DaemonSetSpec } from "./daemonset-types.ts";
import { validateDaemonSet, validateDaemonSetStatusUpdate, validateRollingUpdateDaemonSet } from "./daemonset-validation.ts";

const messages = (errs: ReturnType<typeof validateDaemonSet>): string[] => errs.map(fieldErrorString);

function validDaemonSet(spec: Partial<DaemonSetSpec> = {}): DaemonSet {
  return setDefaultsDaemonSet({
    metadata: { name: "abc", namespace: "default", resourceVersion: "1" },
    spec: {
      selector: { matchLabels: { a: "b" } },
      template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "abc", image: "image" }] } },
      ...spec,
    },
  });
}

describe("setDefaultsDaemonSet (TestSetDefaultDaemonSetSpec)", () => {
  it("RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10", () => {
    expect(validDaemonSet().spec).toMatchObject({
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect(validDaemonSet({ updateStrategy: { type: "OnDelete" } }).spec.updateStrategy).toEqual({ type: "OnDelete" });
  });
});

describe("validateDaemonSet (TestValidateDaemonSet)", () => {
  it("accepts a defaulted DaemonSet and OnDelete", () => {
    expect(messages(validateDaemonSet(validDaemonSet()))).toEqual([]);
    expect(messages(validateDaemonSet(validDaemonSet({ updateStrategy: { type: "OnDelete" } })))).toEqual([]);
  });

  it.each<[string, Partial<DaemonSetSpec>, string[]]>([
    [
      "selector_doesnt_match",
      { selector: { matchLabels: { foo: "bar" } } },
      ['spec.template.metadata.labels: Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`'],
    ],
    [
      "nil selector",
      { selector: undefined },
      ['spec.template.metadata.labels: Invalid value: map[string]string{"a":"b"}: `selector` does not match template `labels`'],
    ],
    [
      "empty selector",
      { selector: {} },
      [
        "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset",
      ],
    ],
    [
      "invalid restart policy",
      {
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "abc", image: "image" }], restartPolicy: "OnFailure" },
        },
      },
      ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    [
      "unknown update strategy",
      { updateStrategy: { type: "Foo" } },
      [
        'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Foo", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
      ],
    ],
    ["negative minReadySeconds", { minReadySeconds: -1 }, ["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"]],
  ])("rejects %s", (_name, spec, want) => {
    expect(messages(validateDaemonSet(validDaemonSet(spec)))).toEqual(want);
  });
});

describe("validateRollingUpdateDaemonSet (TestValidateRollingUpdateDaemonSet)", () => {
  it.each<[string, Parameters<typeof validateRollingUpdateDaemonSet>[0], string[]]>([
    ["unavailable 1", { maxUnavailable: 1, maxSurge: 0 }, []],
    ["surge 10%", { maxUnavailable: 0, maxSurge: "10%" }, []],
    ["both zero", { maxUnavailable: 0, maxSurge: "0%" }, ["spec.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"]],
    [
      "both set",
      { maxUnavailable: 1, maxSurge: 1 },
      ['spec.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero'],
    ],
    [
      "above 100%",
      { maxUnavailable: "101%", maxSurge: 0 },
      ['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%'],
    ],
    ["negative", { maxUnavailable: -1, maxSurge: 0 }, ["spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"]],
  ])("%s", (_name, ru, want) => {
    expect(messages(validateRollingUpdateDaemonSet(ru, "spec"))).toEqual(want);
  });
});

describe("validateDaemonSetStatusUpdate (TestValidateDaemonSetStatusUpdate)", () => {
  const status = { currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1, observedGeneration: 1 };
  it.each<[string, Partial<DaemonSet["status"]>, string[]]>([
    ["valid", {}, []],
    ["negative numberReady", { numberReady: -1 }, ["status.numberReady: Invalid value: -1: must be greater than or equal to 0"]],
    ["decremented collisionCount", { collisionCount: 0 }, ["status.collisionCount: Invalid value: 0: cannot be decremented"]],
  ])("%s", (_name, change, want) => {
    const old = { ...validDaemonSet(), status: { ...status, collisionCount: 1 } };
    const ds = { ...validDaemonSet(), status: { ...status, collisionCount: 1, ...change } };
    expect(messages(validateDaemonSetStatusUpdate(ds, old))).toEqual(want);
  });
});
