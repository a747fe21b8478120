/**
 * `realStatefulSetStatusUpdater` (pkg/controller/statefulset/stateful_set_status_updater.go) and
 * `updateStatefulSetStatus` (stateful_set_control.go): the status is written only when it changed,
 * retrying a conflict on a fresh read.
 */
import type { StatefulSet, StatefulSetStatus } from "@servicenet/api";
import { isConflict } from "@servicenet/client/errors";
import { completeRollingUpdate, inconsistentStatus } from "./stateful-set-utils.ts";

export interface StatefulSetStatusClient {
  getStatefulSet(namespace: string, name: string): Promise<StatefulSet>;
  updateStatus(set: StatefulSet): Promise<StatefulSet>;
}

/** retry.DefaultBackoff's steps: RetryOnConflict tries this many times. */
const conflictRetries = 4;

/** Completes a finished rolling update, then PUTs the status when it differs from the set's. */
export async function updateStatefulSetStatus(client: StatefulSetStatusClient, set: StatefulSet, status: StatefulSetStatus): Promise<void> {
  completeRollingUpdate(set, status);
  if (!inconsistentStatus(set, status)) return;
  let target = structuredClone(set);
  for (let attempt = 1; ; attempt++) {
    target.status = { ...status };
    try {
      await client.updateStatus(target);
      return;
    } catch (err) {
      if (!isConflict(err) || attempt >= conflictRetries) throw err;
      target = await client.getStatefulSet(set.metadata.namespace ?? "", set.metadata.name ?? "");
    }
  }
}
