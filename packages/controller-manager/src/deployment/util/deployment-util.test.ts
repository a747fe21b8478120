/** pkg/controller/deployment/util/deployment_util_test.go tables. */
import { describe, expect, it } from "vitest";
import type { Deployment, DeploymentStatus, IntOrString, ReplicaSet } from "@servicenet/api";
import * as au from "./annotations.ts";
import * as cu from "./conditions.ts";
import * as ru from "./replicas.ts";
import * as su from "./replicaset-util.ts";

let uid = 0;
/** `generateDeployment`: an nginx Deployment, RollingUpdate. */
function generateDeployment(image: string): Deployment {
  return {
    metadata: { name: image, namespace: "default", uid: `d-${++uid}`, annotations: {} },
    spec: {
      replicas: 1,
      selector: { matchLabels: { name: image } },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
      template: { metadata: { labels: { name: image } }, spec: { containers: [{ name: image, image }] } },
    },
  };
}

/** `generateRS`: the Deployment's ReplicaSet, the hash label added. */
function generateRS(d: Deployment): ReplicaSet {
  const template = structuredClone(d.spec.template);
  template.metadata.labels = { ...template.metadata.labels, [su.defaultDeploymentUniqueLabelKey]: "hash" };
  return {
    metadata: { uid: `rs-${++uid}`, name: `${d.metadata.name}-hash`, namespace: "default", labels: { ...template.metadata.labels } },
    spec: { replicas: 0, template, selector: { matchLabels: { ...template.metadata.labels } } },
  };
}

describe("FindNewReplicaSet / FindOldReplicaSets", () => {
  const deployment = generateDeployment("nginx");
  const newRS = generateRS(deployment);
  newRS.metadata.labels![su.defaultDeploymentUniqueLabelKey] = "hash";
  newRS.metadata.creationTimestamp = "2026-01-01T00:01:00Z";
  const newRSDup = generateRS(deployment);
  newRSDup.metadata.labels![su.defaultDeploymentUniqueLabelKey] = "different-hash";
  newRSDup.metadata.creationTimestamp = "2026-01-01T00:01:00Z";
  newRSDup.metadata.name = "nginx-hash-dup";
  const oldDeployment = generateDeployment("nginx");
  oldDeployment.spec.template.spec.containers[0]!.name = "nginx-old-1";
  const oldRS = generateRS(oldDeployment);
  oldRS.metadata.name = "nginx-old";
  oldRS.metadata.creationTimestamp = "2026-01-01T00:00:00Z";

  it.each([
    ["Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value", [newRS, oldRS], newRS],
    ["Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template", [newRS, oldRS, newRSDup], newRS],
    ["Get nil new ReplicaSet", [oldRS], undefined],
  ] as const)("TestFindNewReplicaSet: %s", (_n, rsList, expected) => {
    expect(su.findNewReplicaSet(deployment, [...rsList])).toBe(expected);
  });

  it.each([
    ["Get old ReplicaSets", [newRS, oldRS], [oldRS], []],
    ["Get old ReplicaSets with no new ReplicaSet", [oldRS], [oldRS], []],
    [
      "Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet",
      [oldRS, newRS, newRSDup],
      [oldRS, newRSDup],
      [],
    ],
    ["Get empty old ReplicaSets", [newRS], [], []],
  ] as const)("TestFindOldReplicaSets: %s", (_n, rsList, expected, expectedRequire) => {
    const [required, all] = su.findOldReplicaSets(deployment, [...rsList]);
    expect(all.sort(su.byCreationTimestamp)).toEqual([...expected].sort(su.byCreationTimestamp));
    expect(required).toEqual(expectedRequire);
  });

  it("old ReplicaSets with replicas are required", () => {
    const withReplicas = { ...oldRS, spec: { ...oldRS.spec, replicas: 2 } };
    expect(su.findOldReplicaSets(deployment, [newRS, withReplicas])).toEqual([[withReplicas], [withReplicas]]);
  });
});

describe("TestGetReplicaCountForReplicaSets", () => {
  const rs1 = generateRS(generateDeployment("foo"));
  rs1.spec.replicas = 1;
  rs1.status = { replicas: 2 };
  const rs2 = generateRS(generateDeployment("bar"));
  rs2.spec.replicas = 2;
  rs2.status = { replicas: 3 };
  it.each([
    ["1:2 Replicas", [rs1], 1, 2],
    ["3:5 Replicas", [rs1, rs2], 3, 5],
  ] as const)("%s", (_n, sets, count, actual) => {
    expect(ru.getReplicaCountForReplicaSets(sets)).toBe(count);
    expect(ru.getActualReplicaCountForReplicaSets(sets)).toBe(actual);
  });
});

describe("TestResolveFenceposts", () => {
  it.each([
    ["0%", "0%", 0, 0, 1, false],
    ["39%", "39%", 10, 4, 3, false],
    ["oops", "39%", 10, 0, 0, true],
    ["55%", "urg", 10, 0, 0, true],
    ["5", "1", 10, 0, 0, true],
  ] as const)("maxSurge=%s maxUnavailable=%s desired=%i", (surge, unavailable, desired, es, eu, err) => {
    if (err) expect(() => ru.resolveFenceposts(surge, unavailable, desired)).toThrow(/invalid/);
    else expect(ru.resolveFenceposts(surge, unavailable, desired)).toEqual([es, eu]);
  });

  it("strconv's message for a bad percentage", () => {
    expect(() => ru.resolveFenceposts("x%", 0, 10)).toThrow(
      'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax',
    );
  });
});

describe("TestNewRSNewReplicas", () => {
  it.each([
    ["can not scale up - to newRSReplicas", "RollingUpdate", 1, 5, 1, 5],
    ["scale up - to depReplicas", "RollingUpdate", 6, 2, 10, 6],
    ["recreate - to depReplicas", "Recreate", 3, 1, 1, 3],
  ] as const)("%s", (_n, type, depReplicas, newRSReplicas, maxSurge, expected) => {
    const d = generateDeployment("nginx");
    d.spec.replicas = depReplicas;
    d.spec.strategy = { type, rollingUpdate: { maxUnavailable: 1, maxSurge } };
    const newRC = generateRS(d);
    newRC.spec.replicas = newRSReplicas;
    const rs5 = generateRS(d);
    rs5.spec.replicas = 5;
    expect(ru.newRSNewReplicas(d, [rs5], newRC)).toBe(expected);
  });

  it("unknown strategy", () => {
    const d = generateDeployment("nginx");
    d.spec.strategy = { type: "Bogus" };
    expect(() => ru.newRSNewReplicas(d, [], generateRS(d))).toThrow("deployment type Bogus isn't supported");
  });
});

describe("conditions", () => {
  const condProgressing = () => ({ type: "Progressing", status: "False", reason: "ForSomeReason" });
  const condProgressing2 = () => ({ type: "Progressing", status: "True", reason: "BecauseItIs" });
  const condAvailable = () => ({ type: "Available", status: "True", reason: "AwesomeController" });
  const status = (): DeploymentStatus => ({ conditions: [condProgressing(), condAvailable()] });

  it.each([
    ["condition exists", "Available", true],
    ["condition does not exist", "ReplicaFailure", false],
  ] as const)("TestGetCondition: %s", (_n, type, expected) => {
    expect(cu.getDeploymentCondition(status(), type) !== undefined).toBe(expected);
  });

  it.each([
    ["set for the first time", {}, condAvailable(), { conditions: [condAvailable()] }],
    ["simple set", { conditions: [condProgressing()] }, condAvailable(), status()],
    ["overwrite", { conditions: [condProgressing()] }, condProgressing2(), { conditions: [condProgressing2()] }],
  ] as const)("TestSetCondition: %s", (_n, s, cond, expected) => {
    const st = structuredClone(s) as DeploymentStatus;
    cu.setDeploymentCondition(st, cond);
    expect(st).toEqual(expected);
  });

  it("TestSetCondition: same status keeps lastTransitionTime", () => {
    const st: DeploymentStatus = { conditions: [{ ...condProgressing2(), lastTransitionTime: "2026-01-01T00:00:00Z" }] };
    cu.setDeploymentCondition(st, { ...condProgressing2(), reason: "Other", lastTransitionTime: "2026-01-02T00:00:00Z" });
    expect(st.conditions).toEqual([{ ...condProgressing2(), reason: "Other", lastTransitionTime: "2026-01-01T00:00:00Z" }]);
  });

  it.each([
    ["remove from empty status", {}, "Progressing", {}],
    ["simple remove", { conditions: [condProgressing()] }, "Progressing", { conditions: [] }],
    ["doesn't remove anything", status(), "ReplicaFailure", status()],
  ] as const)("TestRemoveCondition: %s", (_n, s, type, expected) => {
    const st = structuredClone(s) as DeploymentStatus;
    cu.removeDeploymentCondition(st, type);
    expect(st).toEqual(expected);
  });
});

describe("TestDeploymentComplete", () => {
  const deployment = (
    desired: number,
    current: number,
    updated: number,
    available: number,
    maxUnavailable: number,
    maxSurge: number,
  ): Deployment => ({
    metadata: {},
    spec: {
      replicas: desired,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable, maxSurge } },
      template: { metadata: {}, spec: { containers: [] } },
    },
    status: { replicas: current, updatedReplicas: updated, availableReplicas: available },
  });
  it.each([
    ["not complete: min but not all pods become available", deployment(5, 5, 5, 4, 1, 0), false],
    ["not complete: min availability is not honored", deployment(5, 5, 5, 3, 1, 0), false],
    ["complete", deployment(5, 5, 5, 5, 0, 0), true],
    ["not complete: all pods are available but not updated", deployment(5, 5, 4, 5, 0, 0), false],
    ["not complete: still running old pods", deployment(1, 2, 1, 1, 0, 1), false],
    ["not complete: one replica deployment never comes up", deployment(1, 1, 1, 0, 1, 1), false],
  ])("%s", (_n, d, expected) => {
    expect(cu.deploymentComplete(d, d.status!)).toBe(expected);
  });
});

describe("TestDeploymentProgressing", () => {
  const status = (replicas: number, updatedReplicas: number, readyReplicas: number, availableReplicas: number) => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  const deployment = (...s: [number, number, number, number]): Deployment => ({
    metadata: {},
    spec: { template: { metadata: {}, spec: { containers: [] } } },
    status: status(...s),
  });
  it.each([
    ["progressing: updated pods", deployment(10, 4, 4, 4), status(10, 6, 4, 4), true],
    ["not progressing", deployment(10, 4, 4, 4), status(10, 4, 4, 4), false],
    ["progressing: old pods removed", deployment(10, 4, 6, 6), status(8, 4, 6, 6), true],
    ["not progressing: less new pods", deployment(10, 7, 3, 3), status(10, 6, 3, 3), false],
    ["progressing: less overall but more new pods", deployment(10, 4, 7, 7), status(8, 8, 5, 5), true],
    ["progressing: more ready pods", deployment(10, 10, 9, 8), status(10, 10, 10, 8), true],
    ["progressing: more available pods", deployment(10, 10, 10, 9), status(10, 10, 10, 10), true],
  ])("%s", (_n, d, s, expected) => {
    expect(cu.deploymentProgressingCheck(d, s)).toBe(expected);
  });
});

describe("TestDeploymentTimedOut", () => {
  const timeFn = (min: number, sec: number) => Date.UTC(2016, 0, 1, 0, min, sec);
  const deployment = (reason: string, pds: number | undefined, from: number): Deployment => ({
    metadata: {},
    spec: { ...(pds !== undefined ? { progressDeadlineSeconds: pds } : {}), template: { metadata: {}, spec: { containers: [] } } },
    status: {
      conditions: [{ type: "Progressing", status: "True", reason, lastUpdateTime: new Date(from).toISOString().replace(".000", "") }],
    },
  });
  it.each([
    ["no progressDeadlineSeconds specified - no timeout", deployment("", undefined, timeFn(1, 9)), timeFn(1, 20), false],
    ["progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s", deployment("", 10, timeFn(1, 9)), timeFn(1, 20), true],
    ["progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s", deployment("", 10, timeFn(1, 11)), timeFn(1, 20), false],
    ["previous status was a complete deployment", deployment(cu.newRSAvailableReason, 10, 0), timeFn(1, 20), false],
    ["previous status timed out", deployment(cu.timedOutReason, 10, timeFn(1, 19)), timeFn(1, 20), true],
  ])("%s", (_n, d, now, expected) => {
    expect(cu.deploymentTimedOut(d, d.status!, now)).toBe(expected);
  });
});

describe("TestMaxUnavailable", () => {
  const deployment = (replicas: number, maxUnavailable: IntOrString): Deployment => ({
    metadata: {},
    spec: {
      replicas,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable } },
      template: { metadata: {}, spec: { containers: [] } },
    },
  });
  it.each([
    ["maxUnavailable less than replicas", deployment(10, 5), 5],
    ["maxUnavailable equal replicas", deployment(10, 10), 10],
    ["maxUnavailable greater than replicas", deployment(5, 10), 5],
    ["maxUnavailable with replicas is 0", deployment(0, 10), 0],
    [
      "maxUnavailable with Recreate deployment strategy",
      { ...deployment(1, 1), spec: { ...deployment(1, 1).spec, strategy: { type: "Recreate" } } },
      0,
    ],
    ["maxUnavailable less than replicas with percents", deployment(10, "50%"), 5],
    ["maxUnavailable equal replicas with percents", deployment(10, "100%"), 10],
    ["maxUnavailable greater than replicas with percents", deployment(5, "100%"), 5],
  ])("%s", (_n, d, expected) => {
    expect(ru.maxUnavailable(d)).toBe(expected);
  });
});

describe("TestAnnotationUtils", () => {
  const tDeployment = generateDeployment("nginx");
  const tRS = generateRS(tDeployment);
  tDeployment.metadata.annotations![au.revisionAnnotation] = "1";

  it("SetNewReplicaSetAnnotations", () => {
    for (let i = 0; i < 20; i++) {
      const nextRevision = String(i + 1);
      au.setNewReplicaSetAnnotations(tDeployment, tRS, nextRevision, true, 5);
      expect(tRS.metadata.annotations![au.revisionAnnotation]).toBe(nextRevision);
    }
    // Each replaced revision went to the history, trimmed from the front to 5 characters.
    expect(tRS.metadata.annotations![au.revisionHistoryAnnotation]).toBe("18,19");
  });

  it("SetReplicasAnnotations", () => {
    expect(au.setReplicasAnnotations(tRS, 10, 11)).toBe(true);
    expect(tRS.metadata.annotations![au.desiredReplicasAnnotation]).toBe("10");
    expect(tRS.metadata.annotations![au.maxReplicasAnnotation]).toBe("11");
    expect(au.setReplicasAnnotations(tRS, 10, 11)).toBe(false);
  });

  it("IsSaturated", () => {
    tRS.metadata.annotations![au.desiredReplicasAnnotation] = "1";
    tRS.status = { replicas: 1, availableReplicas: 1 };
    tRS.spec.replicas = 1;
    expect(ru.isSaturated(tDeployment, tRS)).toBe(true);
  });

  it("copies the Deployment's annotations but the skipped ones", () => {
    const d = generateDeployment("web");
    d.metadata.annotations = {
      "kubernetes.io/change-cause": "kubectl set image",
      [au.lastAppliedConfigAnnotation]: "{}",
      [au.revisionAnnotation]: "7",
      [au.deprecatedRollbackToAnnotation]: "1",
    };
    const r = generateRS(d);
    expect(au.setNewReplicaSetAnnotations(d, r, "1", false, 2000)).toBe(true);
    expect(r.metadata.annotations).toEqual({
      "kubernetes.io/change-cause": "kubectl set image",
      [au.revisionAnnotation]: "1",
      [au.desiredReplicasAnnotation]: "1",
      [au.maxReplicasAnnotation]: "2",
    });
  });
});

describe("TestReplicasAnnotationsNeedUpdate", () => {
  const rs = (annotations?: Record<string, string>): ReplicaSet => ({
    metadata: { name: "hello", ...(annotations ? { annotations } : {}) },
    spec: {},
  });
  it.each([
    ["test Annotations nil", rs(), true],
    ["test desiredReplicas update", rs({ [au.desiredReplicasAnnotation]: "8", [au.maxReplicasAnnotation]: "16" }), true],
    ["test maxReplicas update", rs({ [au.desiredReplicasAnnotation]: "16", [au.maxReplicasAnnotation]: "16" }), true],
    ["test needn't update", rs({ [au.desiredReplicasAnnotation]: "10", [au.maxReplicasAnnotation]: "20" }), false],
  ])("%s", (_n, r, expected) => {
    expect(au.replicasAnnotationsNeedUpdate(r, 10, 20)).toBe(expected);
  });
});

describe("revisions", () => {
  const withRev = (v?: string): ReplicaSet => ({
    metadata: v === undefined ? {} : { annotations: { [au.revisionAnnotation]: v } },
    spec: {},
  });
  it("MaxRevision and LastRevision skip unparsable revisions", () => {
    const rss = [withRev("3"), withRev("x"), withRev(), withRev("5"), withRev("4")];
    expect(au.maxRevision(rss)).toBe(5);
    expect(au.lastRevision(rss)).toBe(4);
    expect(() => au.revision(withRev("x"))).toThrow('strconv.ParseInt: parsing "x": invalid syntax');
  });
});

describe("TestGetDeploymentsForReplicaSet", () => {
  const d1 = generateDeployment("foo");
  const d2 = generateDeployment("bar");
  d2.spec.selector = { matchLabels: { name: "foo", tier: "web" } };
  const other = generateDeployment("foo");
  other.metadata.namespace = "other";
  it("matches by selector within the namespace", () => {
    const r = generateRS(d1);
    expect(su.getDeploymentsForReplicaSet([d1, d2, other], r)).toEqual([d1]);
    r.metadata.labels = { ...r.metadata.labels, tier: "web" };
    expect(su.getDeploymentsForReplicaSet([d1, d2, other], r)).toEqual([d1, d2]);
  });
  it("errors without labels or matches", () => {
    expect(() => su.getDeploymentsForReplicaSet([d1], { metadata: { name: "x", namespace: "default" }, spec: {} })).toThrow(
      "no deployments found for ReplicaSet x because it has no labels",
    );
    expect(() =>
      su.getDeploymentsForReplicaSet([d1], { metadata: { name: "x", namespace: "default", labels: { a: "b" } }, spec: {} }),
    ).toThrow("could not find deployments set for ReplicaSet x in namespace default with labels: map[a:b]");
  });
});

describe("TestGetProportion / proportions", () => {
  it("a ReplicaSet's share follows its max-replicas annotation", () => {
    const d = generateDeployment("nginx");
    d.spec.replicas = 20;
    d.spec.strategy = { type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    const r = generateRS(d);
    r.spec.replicas = 5;
    r.metadata.annotations = { [au.maxReplicasAnnotation]: "10" };
    // 5 * 20 / 10 = 10: five more, within the 10 allowed.
    expect(ru.getProportion(r, d, 10, 0)).toBe(5);
    expect(ru.getProportion(r, d, 10, 8)).toBe(2);
    expect(ru.getProportion(r, d, 0, 0)).toBe(0);
  });
});
