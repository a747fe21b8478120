/**
 * The owned-fields fast path of updateManagedFields (updateOwnedFields) against the set-based path
 * (updateManagedFieldsGeneral): wherever the fast path answers, its answer must be the set-based
 * path's, compared as JSON text (key and entry order count); where a field changes hands or goes
 * away it must decline.
 */
import { describe, expect, it } from "vitest";
import { fromFieldsV1 } from "./fieldpath-serialize.ts";
import type { JSONObject, JSONValue } from "./json-value.ts";
import { updateManagedFields, updateManagedFieldsGeneral } from "./managed-fields.ts";
import { fieldsV1Has, updateOwnedFields } from "./managed-fields-owned.ts";

const created = new Date("2026-12-06T10:00:00Z");
const renewed = new Date("2026-12-06T10:00:10Z");
const text = (v: unknown): string => JSON.stringify(v);
const clone = <T>(v: T): T => structuredClone(v);
const meta = (o: JSONObject): JSONObject => o.metadata as JSONObject;

/** `obj` as stored after its creation by `manager` (the create path's managedFields). */
const stored = (obj: JSONObject, manager: string, sub?: string): JSONObject =>
  updateManagedFields(undefined, obj, manager, "Update", "v1", created, sub);

const lease = stored(
  {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: {
      name: "node-1",
      namespace: "kube-node-lease",
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "node-1", uid: "u1" }],
    },
    spec: { holderIdentity: "node-1", leaseDurationSeconds: 40, renewTime: "2026-12-06T10:00:00.000000Z" },
  },
  "kubelet",
);
const renewal = (o: JSONObject, renewTime: string): JSONObject => {
  const c = clone(o);
  (c.spec as JSONObject).renewTime = renewTime;
  return c;
};

const podSpec = { containers: [{ name: "c", image: "nginx" }], nodeName: "node-1" };
const podMeta = { name: "web-1", namespace: "default", labels: { app: "web" } };
const readyPod = (ready: string, metadata: JSONObject): JSONObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata,
  spec: podSpec,
  status: { phase: "Running", podIP: "10.0.0.5", conditions: [{ type: "Ready", status: ready }] },
});
// The Pod as the ReplicaSet controller created it (no status), then the kubelet's first status.
const createdPod = stored({ apiVersion: "v1", kind: "Pod", metadata: podMeta, spec: podSpec }, "kube-controller-manager");
const pod = updateManagedFields(createdPod, readyPod("False", meta(createdPod)), "kubelet", "Update", "v1", created, "status");
const withStatus = (o: JSONObject, ready: string): JSONObject => {
  const c = clone(o);
  (c.status as JSONObject).conditions = [{ type: "Ready", status: ready }];
  return c;
};

describe("fieldsV1Has = membership in fromFieldsV1's set", () => {
  const trees: JSONValue[] = [
    { "f:spec": { "f:renewTime": {}, "f:holderIdentity": {} } },
    {
      "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
      "f:status": { "f:conditions": { 'k:{"type":"Ready"}': { ".": {}, "f:status": {} } } },
    },
    { "f:a": 1, "f:b": { "f:c": "x" } },
    {},
  ];
  it.each(trees.map((t) => [text(t), t]))("%s", (_n, tree) => {
    const set = fromFieldsV1(tree);
    for (const p of set) expect(fieldsV1Has(tree, p), p).toBe(true);
    for (const p of ['["f:spec"]', '["f:metadata","f:labels","f:tier"]', '["f:status","f:conditions"]', '["f:a"]', '["f:b","f:c"]', "[]"])
      expect(fieldsV1Has(tree, p), p).toBe(set.has(p));
  });
});

describe("updateOwnedFields = updateManagedFieldsGeneral where it answers", () => {
  const cases: [string, JSONObject, JSONObject, string, string | undefined][] = [
    ["a Lease renewal by its kubelet", lease, renewal(lease, "2026-12-06T10:00:10.000000Z"), "kubelet", undefined],
    [
      "a Lease renewal without managedFields in the body",
      lease,
      renewal({ ...lease, metadata: { ...meta(lease), managedFields: undefined as unknown as JSONValue } }, "2026-12-06T10:00:10.000000Z"),
      "kubelet",
      undefined,
    ],
    ["nothing changed", lease, clone(lease), "kubelet", undefined],
    ["nothing changed, by a manager with no entry", lease, clone(lease), "kubectl", undefined],
    ["the Ready condition flips, by the status owner", pod, withStatus(pod, "True"), "kubelet", "status"],
  ];
  it.each(cases)("%s", (_n, oldObj, newObj, manager, sub) => {
    const fast = updateOwnedFields(oldObj, newObj, manager, "Update", "v1", renewed, sub);
    expect(fast).toBeDefined();
    expect(text(fast)).toBe(text(updateManagedFieldsGeneral(oldObj, newObj, manager, "Update", "v1", renewed, sub)));
  });
  it("moves the renewing manager's time and keeps the entries sorted by time", () => {
    const two = updateManagedFields(
      lease,
      { ...clone(lease), metadata: { ...meta(lease), labels: { a: "b" } } },
      "other",
      "Update",
      "v1",
      created,
    );
    const out = updateOwnedFields(two, renewal(two, "2026-12-06T10:00:20.000000Z"), "kubelet", "Update", "v1", renewed);
    const entries = meta(out!).managedFields as JSONObject[];
    expect(entries.map((e) => [e.manager, e.time])).toEqual([
      ["other", "2026-12-06T10:00:00Z"],
      ["kubelet", "2026-12-06T10:00:10Z"],
    ]);
  });
});

describe("updateOwnedFields declines what moves fields", () => {
  const cases: [string, JSONObject, JSONObject, string, string | undefined][] = [
    ["another manager changes the kubelet's field", lease, renewal(lease, "2026-12-06T10:00:10.000000Z"), "kubectl", undefined],
    [
      "the owner adds a field",
      lease,
      { ...clone(lease), spec: { ...(lease.spec as JSONObject), acquireTime: "2026-12-06T10:00:10.000000Z" } },
      "kubelet",
      undefined,
    ],
    [
      "the owner removes a field",
      lease,
      { ...clone(lease), spec: { holderIdentity: "node-1", renewTime: "2026-12-06T10:00:00.000000Z" } },
      "kubelet",
      undefined,
    ],
    [
      "the client rewrites managedFields",
      lease,
      { ...renewal(lease, "y"), metadata: { ...meta(lease), managedFields: [] } },
      "kubelet",
      undefined,
    ],
    [
      "the status owner changes a label (the controller's)",
      pod,
      { ...clone(pod), metadata: { ...meta(pod), labels: { app: "db" } } },
      "kubelet",
      "status",
    ],
  ];
  it.each(cases)("%s", (_n, oldObj, newObj, manager, sub) => {
    expect(updateOwnedFields(oldObj, newObj, manager, "Update", "v1", renewed, sub)).toBeUndefined();
  });
  it("declines a field another manager shares (an applier's), which the update takes from it", () => {
    const list = meta(lease).managedFields as JSONObject[];
    const applier = {
      manager: "ops",
      operation: "Apply",
      apiVersion: "coordination.k8s.io/v1",
      time: "2026-12-06T09:00:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:spec": { "f:renewTime": {} } },
    };
    const shared = { ...lease, metadata: { ...meta(lease), managedFields: [...list, applier] } };
    const next = renewal(shared, "2026-12-06T10:00:10.000000Z");
    expect(updateOwnedFields(shared, next, "kubelet", "Update", "v1", renewed)).toBeUndefined();
    const out = meta(updateManagedFields(shared, next, "kubelet", "Update", "v1", renewed)).managedFields as JSONObject[];
    expect(out.map((e) => e.manager)).toEqual(["kubelet"]);
  });
  it("declines stored entries of one manager twice", () => {
    const list = meta(lease).managedFields as JSONValue[];
    const twice = { ...lease, metadata: { ...meta(lease), managedFields: [...list, ...list] } };
    expect(updateOwnedFields(twice, renewal(twice, "z"), "kubelet", "Update", "v1", renewed)).toBeUndefined();
  });
});

describe("random updates: the fast path's answers = the set-based path's", () => {
  const rng =
    (seed: number): (() => number) =>
    () =>
      (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

  it("400 steps, three managers, main resource and status, mostly small changes", () => {
    let answered = 0;
    for (let chain = 0; chain < 4; chain++) {
      const r = rng(chain + 7);
      let cur = pod;
      for (let step = 0; step < 100; step++) {
        const next = clone(cur);
        const labels = meta(next).labels as JSONObject;
        const status = next.status as JSONObject;
        if (r() < 0.4) (status.conditions as JSONObject[])[0]!.status = pick(r, ["True", "False"]);
        if (r() < 0.2) status.podIP = pick(r, ["10.0.0.5", "10.0.0.6"]);
        if (r() < 0.15) labels[pick(r, ["app", "tier"])] = pick(r, ["web", "db"]);
        if (r() < 0.05) delete labels[pick(r, ["app", "tier"])];
        if (r() < 0.1) meta(next).managedFields = [];
        const manager = pick(r, ["kubelet", "kubelet", "kube-controller-manager", "kubectl"]);
        const sub = manager === "kubelet" || r() < 0.2 ? "status" : undefined;
        const when = new Date(created.getTime() + step * 1000);
        const want = text(updateManagedFieldsGeneral(cur, next, manager, "Update", "v1", when, sub));
        const fast = updateOwnedFields(cur, next, manager, "Update", "v1", when, sub);
        if (fast !== undefined) {
          answered++;
          expect(text(fast), `chain ${chain} step ${step}`).toBe(want);
        }
        expect(text(updateManagedFields(cur, next, manager, "Update", "v1", when, sub))).toBe(want);
        cur = JSON.parse(want) as JSONObject;
      }
    }
    // The sequences exercise the fast path, not only the fallback.
    expect(answered).toBeGreaterThan(50);
  });
});
