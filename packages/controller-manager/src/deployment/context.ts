/** What the sync functions of the Deployment controller share (upstream's `*DeploymentController` receiver). */
import type { Deployment, ReplicaSet } from "@servicenet/api";
import type { Informer } from "@servicenet/client/tools/cache";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import type { Clock } from "@servicenet/component-base/clock";
import type { Logger } from "@servicenet/component-base/logs";
import type { DeploymentClient } from "./deployment-client.ts";

export interface DeploymentSyncContext {
  client: DeploymentClient;
  recorder: EventRecorder;
  clock: Clock;
  log: Logger;
  /** The ReplicaSet cache (`rsLister`). */
  replicaSets: Informer<ReplicaSet>;
  /** `enqueueRateLimited` / `enqueueAfter` of the controller's queue. */
  enqueueRateLimited(d: Deployment): void;
  enqueueAfter(d: Deployment, ms: number): void;
}

/** Records an event about the Deployment (`eventRecorder.Eventf(d, ...)`). */
export function deploymentEvent(
  dc: DeploymentSyncContext,
  d: Deployment,
  type: "Normal" | "Warning",
  reason: string,
  message: string,
): void {
  dc.recorder.event(getReference(d, "Deployment", "apps/v1"), type, reason, message);
}
