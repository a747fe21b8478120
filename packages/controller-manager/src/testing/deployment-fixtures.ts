/**
 * Fixtures of pkg/controller/deployment's tests: `newDeployment`, `rs`, `newReplicaSet`,
 * `newRSWithStatus`, `generatePodFromRS`, and a fake DeploymentClient recording actions as
 * client-go's fake clientset does (`create replicasets`, `update deployments/status`, ...).
 */
import { randomUUID } from "node:crypto";
import { StatusError, type Deployment, type IntOrString, type Pod, type ReplicaSet } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { FakeClock } from "@servicenet/component-base/clock";
import { noopLogger } from "@servicenet/component-base/logs";
import { newControllerRef } from "../controller/controller-ref-manager.ts";
import type { DeploymentSyncContext } from "../deployment/context.ts";
import type { DeploymentClient } from "../deployment/deployment-client.ts";
import { DeploymentController } from "../deployment/deployment-controller.ts";
import { NoScanInformer } from "./no-scan-informer.ts";

/** `newDeployment`: RollingUpdate with maxSurge/maxUnavailable 0 unless given, one container `foo/bar`. */
export function newDeployment(
  name: string,
  replicas: number,
  revisionHistoryLimit: number | undefined,
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  selector: Record<string, string>,
): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { uid: randomUUID(), name, namespace: "default", annotations: {} },
    spec: {
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: maxUnavailable ?? 0, maxSurge: maxSurge ?? 0 } },
      replicas,
      selector: { matchLabels: { ...selector } },
      template: { metadata: { labels: { ...selector } }, spec: { containers: [{ name: "", image: "foo/bar" }] } },
      ...(revisionHistoryLimit !== undefined ? { revisionHistoryLimit } : {}),
    },
  };
}

/** `rs`: a bare ReplicaSet with a creation time. */
export function rs(name: string, replicas: number, selector: Record<string, string>, timestamp?: string): ReplicaSet {
  return {
    metadata: { name, namespace: "default", ...(timestamp !== undefined ? { creationTimestamp: timestamp } : {}) },
    spec: { replicas, selector: { matchLabels: { ...selector } }, template: { metadata: {}, spec: { containers: [] } } },
  };
}

/** `newRSWithStatus`. */
export function newRSWithStatus(name: string, specReplicas: number, statusReplicas: number, selector: Record<string, string>): ReplicaSet {
  return { ...rs(name, specReplicas, selector), status: { replicas: statusReplicas } };
}

/** `newReplicaSet`: controlled by `d`, with its selector, labels and template. */
export function newReplicaSet(d: Deployment, name: string, replicas: number): ReplicaSet {
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name,
      uid: randomUUID(),
      namespace: "default",
      labels: { ...d.spec.selector?.matchLabels },
      ownerReferences: [newControllerRef({ apiVersion: "apps/v1", kind: "Deployment", metadata: d.metadata })],
    },
    spec: { selector: structuredClone(d.spec.selector), replicas, template: structuredClone(d.spec.template) },
  };
}

/** `generatePodFromRS`: a Pod controlled by the ReplicaSet, with its template's labels. */
export function generatePodFromRS(r: ReplicaSet): Pod {
  return {
    metadata: {
      name: "pod1",
      namespace: r.metadata.namespace ?? "default",
      labels: { ...r.spec.selector?.matchLabels },
      ownerReferences: [newControllerRef({ apiVersion: "apps/v1", kind: "ReplicaSet", metadata: r.metadata })],
    },
    spec: { containers: [] },
  };
}

const deploymentsGR = { group: "apps", resource: "deployments" };
const replicaSetsGR = { group: "apps", resource: "replicasets" };

/** A DeploymentClient over maps of objects (the fixture's `objects`), recording each call. */
export class FakeDeploymentClient implements DeploymentClient {
  readonly actions: string[] = [];
  readonly deployments = new Map<string, Deployment>();
  readonly replicaSets = new Map<string, ReplicaSet>();
  /** Answers an action with an error instead (client-go's PrependReactor). */
  fail?: (action: string, obj: unknown) => Error | undefined;
  #rv = 1;

  constructor(objects: readonly (Deployment | ReplicaSet)[] = []) {
    for (const o of objects) (o.kind === "Deployment" ? this.deployments : this.replicaSets).set(key(o), structuredClone(o) as never);
  }

  /** Records the action; a `fail` answer rejects it (after a tick, as a request would). */
  async #record(action: string, obj?: unknown): Promise<void> {
    this.actions.push(action);
    const err = this.fail?.(action, obj);
    await Promise.resolve();
    if (err !== undefined) throw err;
  }

  #stored<T extends Deployment | ReplicaSet>(o: T): T {
    const c = structuredClone(o);
    c.metadata.resourceVersion = String(++this.#rv);
    return c;
  }

  async getDeployment(namespace: string, name: string): Promise<Deployment> {
    await this.#record("get deployments");
    const d = this.deployments.get(`${namespace}/${name}`);
    if (d === undefined) throw StatusError.notFound(deploymentsGR, name);
    return structuredClone(d);
  }

  updateDeployment(d: Deployment): Promise<Deployment> {
    return this.#put("update deployments", d);
  }

  updateDeploymentStatus(d: Deployment): Promise<Deployment> {
    return this.#put("update deployments/status", d);
  }

  async #put(action: string, d: Deployment): Promise<Deployment> {
    await this.#record(action, d);
    const s = this.#stored(d);
    this.deployments.set(key(d), s);
    return structuredClone(s);
  }

  async createReplicaSet(namespace: string, r: ReplicaSet): Promise<ReplicaSet> {
    await this.#record("create replicasets", r);
    const k = `${namespace}/${r.metadata.name ?? ""}`;
    if (this.replicaSets.has(k)) throw StatusError.alreadyExists(replicaSetsGR, r.metadata.name ?? "");
    const s = this.#stored({ ...r, metadata: { ...r.metadata, uid: randomUUID(), generation: 1 } });
    this.replicaSets.set(k, s);
    return structuredClone(s);
  }

  async updateReplicaSet(r: ReplicaSet): Promise<ReplicaSet> {
    await this.#record("update replicasets", r);
    const s = this.#stored(r);
    this.replicaSets.set(key(r), s);
    return structuredClone(s);
  }

  async deleteReplicaSet(namespace: string, name: string): Promise<void> {
    await this.#record("delete replicasets", name);
    this.replicaSets.delete(`${namespace}/${name}`);
  }

  async patchReplicaSet(namespace: string, name: string, patch: Record<string, unknown>): Promise<ReplicaSet> {
    await this.#record("patch replicasets", patch);
    const r = this.replicaSets.get(`${namespace}/${name}`);
    if (r === undefined) throw StatusError.notFound(replicaSetsGR, name);
    return structuredClone(r);
  }
}

const key = (o: { metadata: { namespace?: string | undefined; name?: string | undefined } }) =>
  `${o.metadata.namespace ?? ""}/${o.metadata.name ?? ""}`;

/**
 * `newFixture` + `newController`: listers (informers), objects (the fake client), recorder and a
 * fake clock. The informers refuse whole-cache scans: the controller reads one namespace through
 * its listers, as upstream's.
 */
export function newFixture(
  o: { deployments?: Deployment[]; replicaSets?: ReplicaSet[]; pods?: Pod[]; objects?: (Deployment | ReplicaSet)[] } = {},
) {
  const deployments = new NoScanInformer<Deployment>(o.deployments ?? []);
  const replicaSets = new NoScanInformer<ReplicaSet>(o.replicaSets ?? []);
  const pods = new NoScanInformer<Pod>(o.pods ?? []);
  const client = new FakeDeploymentClient(o.objects ?? []);
  const recorder = new FakeRecorder();
  const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
  const controller = new DeploymentController({ deployments, replicaSets, pods, client, recorder, clock });
  return { deployments, replicaSets, pods, client, recorder, clock, controller };
}

/** A sync context over a fake client, for the strategy functions' tests. */
export function newSyncContext(objects: (Deployment | ReplicaSet)[] = [], replicaSets: ReplicaSet[] = []) {
  const client = new FakeDeploymentClient(objects);
  const recorder = new FakeRecorder();
  const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
  const enqueued: { key: string; afterMs: number | "ratelimited" }[] = [];
  const ctx: DeploymentSyncContext = {
    client,
    recorder,
    clock,
    log: noopLogger,
    replicaSets: new MemoryInformer<ReplicaSet>(replicaSets),
    enqueueRateLimited: (d) => enqueued.push({ key: key(d), afterMs: "ratelimited" }),
    enqueueAfter: (d, ms) => enqueued.push({ key: key(d), afterMs: ms }),
  };
  return { ctx, client, recorder, clock, enqueued };
}
