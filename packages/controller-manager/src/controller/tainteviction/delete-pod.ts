/**
 * The eviction itself (pkg/controller/tainteviction/taint_eviction.go `deletePodHandler`,
 * `addConditionAndDeletePod`): the Pod gets the DisruptionTarget condition through a status
 * patch, then is deleted; up to 5 tries, 10 ms apart.
 */
import type { Pod } from "@servicenet/api";
import type { Clock } from "@servicenet/component-base/clock";
import { sleep } from "@servicenet/component-base/clock";
import { describeError } from "@servicenet/client/errors";
import type { Logger } from "@servicenet/component-base/logs";
import { updatePodCondition } from "../util/node/controller-utils.ts";
import { podStatusPatch } from "../../util/pod/pod.ts";
import type { TaintEvictionClient } from "./taint-eviction-client.ts";
import type { TaintEvictionMetrics } from "./metrics/metrics.ts";
import type { WorkArgs, WorkFunc } from "./timed-workers.ts";

/** upstream `retries`. */
const retries = 5;

/** The DisruptionTarget condition the controller sets before it deletes a Pod. */
export const disruptionTargetCondition = {
  type: "DisruptionTarget",
  status: "True",
  reason: "DeletionByTaintManager",
  message: "Taint manager: deleting due to NoExecute taint",
} as const;

export interface DeletePodOptions {
  client: TaintEvictionClient;
  clock: Clock;
  logger: Logger;
  controllerName: string;
  /** `emitPodDeletionEvent`. */
  emitEvent: (args: WorkArgs) => void;
  metrics?: TaintEvictionMetrics | undefined;
}

/** `addConditionAndDeletePod`: a fresh read, the condition patched in when missing, then DELETE. */
export async function addConditionAndDeletePod(client: TaintEvictionClient, clock: Clock, name: string, ns: string): Promise<void> {
  const pod: Pod = await client.getPod(ns, name);
  const updated = structuredClone(pod);
  if (updatePodCondition(updated, { ...disruptionTargetCondition }, clock.now())) {
    const { patch, unchanged } = podStatusPatch(pod.metadata.uid ?? "", pod.status ?? {}, updated.status ?? {});
    if (!unchanged) {
      try {
        await client.patchPodStatus(ns, name, patch);
      } catch (err) {
        // PatchPodStatus's wrapping.
        throw new Error(
          `failed to patch status ${JSON.stringify(JSON.stringify(patch))} for pod "${ns}"/"${name}": ${describeError(err)}`,
          {
            cause: err,
          },
        );
      }
    }
  }
  await client.deletePod(ns, name);
}

/** `deletePodHandler`: the work function of the controller's timed worker queue. */
export function deletePodHandler(o: DeletePodOptions): WorkFunc {
  return async (fireAt, args, signal) => {
    o.logger.info("Deleting pod", { controller: o.controllerName, pod: `${args.namespace}/${args.name}` });
    o.emitEvent(args);
    let last: unknown;
    for (let i = 0; i < retries; i++) {
      try {
        await addConditionAndDeletePod(o.client, o.clock, args.name, args.namespace);
        o.metrics?.podDeletionsTotal.inc();
        // Seconds, as the metric's help says (upstream multiplies the Duration by time.Second once more).
        o.metrics?.podDeletionsLatency.observe({}, Math.max(0, o.clock.now() - fireAt) / 1000);
        return;
      } catch (err) {
        last = err;
      }
      if (!(await sleep(o.clock, 10, signal))) break;
    }
    throw last instanceof Error ? last : new Error(describeError(last));
  };
}
