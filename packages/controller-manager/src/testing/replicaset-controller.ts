/** The ReplicaSet controller's unit-test harness (upstream's testNewReplicaSetControllerFromClient and validateSyncReplicaSet). */
import { expect } from "vitest";
import type { Pod, ReplicaSet } from "@servicenet/api";
import { StatusError } from "@servicenet/api/errors";
import { FakeClock } from "@servicenet/component-base/clock";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { MaxOfRateLimiter, RateLimitingQueue } from "@servicenet/client/util/workqueue";
import type { UIDTrackingControllerExpectations } from "../controller/controller-expectations.ts";
import { controllerUIDIndex, controllerUIDIndexFunc, podControllerUIDIndex, podControllerUIDIndexFunc } from "../controller/pod-index.ts";
import { burstReplicas, ReplicaSetController, type ReplicaSetControllerDeps } from "../replicaset/replica-set.ts";
import type { ReplicaSetClient } from "../replicaset/replica-set-utils.ts";
import { FakePodControl } from "./fake-pod-control.ts";

export const labelMap = { foo: "bar" };

export interface SetupOptions {
  rss?: ReplicaSet[];
  pods?: Pod[];
  burst?: number;
  client?: Partial<ReplicaSetClient>;
  expectations?: UIDTrackingControllerExpectations;
}

/** `testNewReplicaSetControllerFromClient` with a FakePodControl, a recording status client and an unlimited queue. */
export function setup(o: SetupOptions = {}) {
  const clock = new FakeClock();
  const replicaSets = new MemoryInformer<ReplicaSet>(o.rss ?? [], true, { [controllerUIDIndex]: controllerUIDIndexFunc });
  const pods = new MemoryInformer<Pod>(o.pods ?? [], true, { [podControllerUIDIndex]: podControllerUIDIndexFunc });
  const podControl = new FakePodControl();
  const actions: string[] = [];
  const statusUpdates: ReplicaSet[] = [];
  const client: ReplicaSetClient = {
    async get(ns, name) {
      actions.push(`get ${name}`);
      const rs = replicaSets.get(`${ns}/${name}`);
      if (rs === undefined) throw new StatusError("NotFound", `replicasets.apps "${name}" not found`);
      return rs;
    },
    async updateStatus(rs) {
      actions.push(`update ${rs.metadata.name ?? ""}`);
      statusUpdates.push(rs);
      return rs;
    },
    ...o.client,
  };
  const queue = new RateLimitingQueue<string>("replicaset", clock, new MaxOfRateLimiter<string>());
  const deps: ReplicaSetControllerDeps = {
    replicaSets,
    pods,
    podControl,
    client,
    burstReplicas: o.burst ?? burstReplicas,
    queue,
    clock,
    ...(o.expectations ? { expectations: o.expectations } : {}),
  };
  const manager = new ReplicaSetController(deps);
  return { manager, replicaSets, pods, podControl, actions, statusUpdates, queue, clock };
}

/** Empties the queue (the informers' replayed adds). */
export async function drain(queue: RateLimitingQueue<string>): Promise<void> {
  while (queue.len() > 0) queue.done((await queue.get())!);
}

/** `validateSyncReplicaSet`. */
export function validateSyncReplicaSet(c: FakePodControl, creates: number, deletes: number, patches: number): void {
  expect({ creates: c.templates.length, deletes: c.deletePodName.length, patches: c.patches.length }).toEqual({
    creates,
    deletes,
    patches,
  });
}

export const key = (rs: ReplicaSet) => `${rs.metadata.namespace}/${rs.metadata.name}`;
