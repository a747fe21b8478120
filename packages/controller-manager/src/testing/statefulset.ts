/**
 * Fakes of the StatefulSet controller's tests (pkg/controller/statefulset/stateful_set_control_test.go's
 * fakeObjectManager, fakeStatefulSetStatusUpdater and fake history): Pods, claims, the set's status
 * and its ControllerRevisions in memory, and helpers that play the kubelet.
 */
import { StatusError, type ControllerRevision, type Pod, type StatefulSet } from "@servicenet/api";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { StatefulPodControl } from "../statefulset/stateful-pod-control.ts";
import { StatefulSetControl } from "../statefulset/stateful-set-control.ts";
import type { StatefulSetClient } from "../statefulset/statefulset-client.ts";
import { setDefaultsStatefulSet } from "@servicenet/api";

let uid = 0;

/** An in-memory apiserver for one namespace; `claimsServed: false` answers claim requests 404 as this cluster does. */
export class FakeStatefulSetClient implements StatefulSetClient {
  readonly pods = new Map<string, Pod>();
  readonly claims = new Map<string, Record<string, unknown>>();
  readonly revisions = new Map<string, ControllerRevision>();
  set: StatefulSet;
  claimsServed = true;
  /** Every request, as `VERB kind/name`. */
  readonly calls: string[] = [];
  #rv = 1;

  constructor(set: StatefulSet) {
    this.set = set;
  }

  #notServed(): StatusError {
    return new StatusError("NotFound", "the server could not find the requested resource");
  }

  async createPod(pod: Pod): Promise<Pod> {
    this.calls.push(`create pod/${pod.metadata.name}`);
    if (this.pods.has(pod.metadata.name ?? "")) throw StatusError.alreadyExists({ group: "", resource: "pods" }, pod.metadata.name ?? "");
    const stored = structuredClone(pod);
    stored.metadata.uid = `pod-${++uid}`;
    stored.metadata.resourceVersion = String(++this.#rv);
    this.pods.set(pod.metadata.name ?? "", stored);
    return stored;
  }
  async getPod(_ns: string, name: string): Promise<Pod> {
    const p = this.pods.get(name);
    if (p === undefined) throw StatusError.notFound({ group: "", resource: "pods" }, name);
    return structuredClone(p);
  }
  async updatePod(pod: Pod): Promise<Pod> {
    this.calls.push(`update pod/${pod.metadata.name}`);
    const stored = structuredClone(pod);
    stored.metadata.resourceVersion = String(++this.#rv);
    this.pods.set(pod.metadata.name ?? "", stored);
    return stored;
  }
  async deletePod(_ns: string, name: string): Promise<void> {
    this.calls.push(`delete pod/${name}`);
    if (!this.pods.delete(name)) throw StatusError.notFound({ group: "", resource: "pods" }, name);
  }
  async getClaim(_ns: string, name: string): Promise<Record<string, unknown>> {
    if (!this.claimsServed) throw this.#notServed();
    const c = this.claims.get(name);
    if (c === undefined) throw StatusError.notFound({ group: "", resource: "persistentvolumeclaims" }, name);
    return c;
  }
  async createClaim(claim: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!this.claimsServed) throw this.#notServed();
    const name = String((claim["metadata"] as Record<string, unknown>)["name"]);
    this.calls.push(`create persistentvolumeclaim/${name}`);
    this.claims.set(name, claim);
    return claim;
  }
  async getStatefulSet(): Promise<StatefulSet> {
    return structuredClone(this.set);
  }
  async updateStatus(set: StatefulSet): Promise<StatefulSet> {
    this.calls.push(`update statefulset/${set.metadata.name}/status`);
    this.set = { ...structuredClone(this.set), status: structuredClone(set.status) };
    return structuredClone(this.set);
  }
  async create(_ns: string, cr: ControllerRevision): Promise<ControllerRevision> {
    this.calls.push(`create controllerrevision/${cr.metadata.name}`);
    if (this.revisions.has(cr.metadata.name ?? ""))
      throw StatusError.alreadyExists({ group: "apps", resource: "controllerrevisions" }, cr.metadata.name ?? "");
    const stored = structuredClone(cr);
    stored.metadata.uid = `cr-${++uid}`;
    stored.metadata.creationTimestamp = new Date(Date.UTC(2025, 0, 1, 0, 0, uid)).toISOString().replace(".000", "");
    this.revisions.set(cr.metadata.name ?? "", stored);
    return structuredClone(stored);
  }
  async get(_ns: string, name: string): Promise<ControllerRevision> {
    const r = this.revisions.get(name);
    if (r === undefined) throw StatusError.notFound({ group: "apps", resource: "controllerrevisions" }, name);
    return structuredClone(r);
  }
  async updateRevision(cr: ControllerRevision, revision: number): Promise<ControllerRevision> {
    this.calls.push(`update controllerrevision/${cr.metadata.name} ${revision}`);
    const stored = { ...structuredClone(cr), revision };
    this.revisions.set(cr.metadata.name ?? "", stored);
    return structuredClone(stored);
  }
  async delete(_ns: string, name: string): Promise<void> {
    this.calls.push(`delete controllerrevision/${name}`);
    this.revisions.delete(name);
  }
  async patchRevision(_ns: string, name: string): Promise<ControllerRevision> {
    return this.get("", name);
  }
}

/** A defaulted StatefulSet `foo` of `replicas` with one container (upstream's newStatefulSet). */
export function newStatefulSet(replicas: number, spec: Partial<StatefulSet["spec"]> = {}): StatefulSet {
  return setDefaultsStatefulSet({
    metadata: { name: "foo", namespace: "default", uid: "set-uid", generation: 1, resourceVersion: "1" },
    spec: {
      replicas,
      serviceName: "governingsvc",
      selector: { matchLabels: { foo: "bar" } },
      template: { metadata: { labels: { foo: "bar" } }, spec: { containers: [{ name: "nginx", image: "nginx" }] } },
      ...spec,
    },
  });
}

/** The control loop over `client`, with the fakes' recorder. */
export function newFakeControl(client: FakeStatefulSetClient, now = () => Date.parse("2025-01-01T01:00:00Z")) {
  const recorder = new FakeRecorder();
  const control = new StatefulSetControl({
    podControl: new StatefulPodControl(client, recorder),
    history: client,
    listRevisions: () => [...client.revisions.values()].map((r) => structuredClone(r)),
    statusClient: client,
    now,
  });
  return { control, recorder };
}

/** The Pods sorted by ordinal. */
export function podsOf(client: FakeStatefulSetClient): Pod[] {
  return [...client.pods.values()].sort((a, b) => Number(a.metadata.name?.split("-").pop()) - Number(b.metadata.name?.split("-").pop()));
}

/** `setPodRunning` + `setPodReady`: what the kubelet reports for a started Pod. */
export function setPodRunningAndReady(client: FakeStatefulSetClient, name: string): void {
  const p = client.pods.get(name)!;
  p.status = { phase: "Running", conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2025-01-01T00:00:00Z" }] };
}

/** `setPodPending`. */
export function setPodPending(client: FakeStatefulSetClient, name: string): void {
  client.pods.get(name)!.status = { phase: "Pending" };
}

/** Runs one pass over the set as the fake holds it. */
export async function syncOnce(client: FakeStatefulSetClient, control: StatefulSetControl): Promise<void> {
  await control.updateStatefulSet(client.set, podsOf(client));
}
