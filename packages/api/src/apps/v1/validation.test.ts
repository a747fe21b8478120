/** Upstream pkg/apis/apps/validation/validation_test.go: TestValidateDeployment, TestValidateReplicaSet, status tests. */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { setDefaultsDeployment, setDefaultsReplicaSet } from "./defaults.ts";
import { validateDeploymentStatusUpdate, validateReplicaSet, validateReplicaSetStatus } from "./status-validation.ts";
import type { Deployment, DeploymentSpec, ReplicaSet } from "./types.ts";
import { validateDeployment } from "./validation.ts";

const messages = (errs: ReturnType<typeof validateDeployment>): string[] => errs.map(fieldErrorString);

function validDeployment(spec: Partial<DeploymentSpec> = {}): Deployment {
  return setDefaultsDeployment({
    metadata: { name: "abc", namespace: "default" },
    spec: {
      selector: { matchLabels: { name: "abc" } },
      template: { metadata: { labels: { name: "abc" } }, spec: { containers: [{ name: "nginx", image: "image" }] } },
      ...spec,
    },
  });
}

describe("validateDeployment (TestValidateDeployment)", () => {
  it("accepts a defaulted Deployment", () => {
    expect(messages(validateDeployment(validDeployment()))).toEqual([]);
  });

  it.each<[string, Partial<DeploymentSpec>, string[]]>([
    [
      "selector that does not match the template",
      { selector: { matchLabels: { name: "def" } } },
      ['spec.template.metadata.labels: Invalid value: map[string]string{"name":"abc"}: `selector` does not match template `labels`'],
    ],
    [
      "empty selector",
      { selector: {} },
      [
        "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment",
      ],
    ],
    ["no selector", { selector: undefined }, ["spec.selector: Required value"]],
    [
      "negative replicas and revisionHistoryLimit",
      { replicas: -1, revisionHistoryLimit: -2 },
      [
        "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
        "spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
      ],
    ],
    [
      "a bad maxSurge percent",
      { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "20Percent", maxUnavailable: 1 } } },
      [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"20Percent\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      "maxSurge and maxUnavailable both 0",
      { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: "0%" } } },
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0',
      ],
    ],
    [
      "maxUnavailable over 100%",
      { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: "110%" } } },
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%',
      ],
    ],
    [
      "rollingUpdate with Recreate",
      { strategy: { type: "Recreate", rollingUpdate: { maxSurge: 1 } } },
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      "an unknown strategy type",
      { strategy: { type: "randomType" } },
      [
        'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"randomType", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ],
    [
      "progressDeadlineSeconds not above minReadySeconds",
      { minReadySeconds: 10, progressDeadlineSeconds: 10 },
      ["spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds"],
    ],
  ])("%s", (_name, spec, want) => {
    const d = validDeployment();
    Object.assign(d.spec, spec);
    if ("selector" in spec && spec.selector === undefined) delete d.spec.selector;
    expect(messages(validateDeployment(d))).toEqual(want);
  });

  it("template restartPolicy must be Always, activeDeadlineSeconds forbidden", () => {
    const d = validDeployment();
    Object.assign(d.spec.template.spec, { restartPolicy: "Never", activeDeadlineSeconds: 5 });
    expect(messages(validateDeployment(d))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported",
    ]);
  });
});

describe("validateReplicaSet (TestValidateReplicaSet)", () => {
  const rs = (): ReplicaSet =>
    setDefaultsReplicaSet({
      metadata: { name: "abc", namespace: "default" },
      spec: {
        selector: { matchLabels: { a: "b" } },
        template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c", image: "i" }] } },
      },
    });

  it("accepts a valid ReplicaSet and rejects a template without containers", () => {
    expect(messages(validateReplicaSet(rs()))).toEqual([]);
    const bad = rs();
    bad.spec.template!.spec.containers = [];
    expect(messages(validateReplicaSet(bad))).toEqual(["spec.template.spec.containers: Required value"]);
  });

  it("TestValidateReplicaSetStatus", () => {
    expect(messages(validateReplicaSetStatus({ replicas: 2, readyReplicas: 3, availableReplicas: 3 }))).toEqual([
      "status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas",
      "status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas",
    ]);
    expect(messages(validateReplicaSetStatus({ replicas: 3, readyReplicas: 1, availableReplicas: 2 }))).toEqual([
      "status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas",
    ]);
  });
});

describe("validateDeploymentStatusUpdate (TestValidateDeploymentStatusUpdate)", () => {
  it("collisionCount may not be decremented", () => {
    const old = validDeployment();
    old.metadata.resourceVersion = "1";
    old.status = { collisionCount: 2 };
    const next = structuredClone(old);
    next.status = { collisionCount: 1 };
    expect(messages(validateDeploymentStatusUpdate(next, old))).toEqual(["status.collisionCount: Invalid value: 1: cannot be decremented"]);
  });
});

describe("SetDefaults_Deployment (TestSetDefaultDeployment)", () => {
  it("defaults strategy, limits and the pod template", () => {
    const d = validDeployment();
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec.template.spec).toMatchObject({
      restartPolicy: "Always",
      dnsPolicy: "ClusterFirst",
      schedulerName: "default-scheduler",
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      containers: [
        {
          name: "nginx",
          image: "image",
          imagePullPolicy: "Always",
          terminationMessagePath: "/dev/termination-log",
          terminationMessagePolicy: "File",
        },
      ],
    });
    const recreate = setDefaultsDeployment({
      metadata: {},
      spec: { strategy: { type: "Recreate" }, template: { metadata: {}, spec: { containers: [] } } },
    });
    expect(recreate.spec.strategy).toEqual({ type: "Recreate" });
  });
});
