/**
 * The taints of pkg/controller/nodelifecycle/node_lifecycle_controller.go: the NoExecute templates
 * and the NoSchedule taints each Node condition maps to (`nodeConditionToTaintKeyStatusMap`).
 */
import {
  taintNodeDiskPressure,
  taintNodeMemoryPressure,
  taintNodeNetworkUnavailable,
  taintNodeNotReady,
  taintNodePIDPressure,
  taintNodeUnreachable,
  taintNodeUnschedulable,
  type Node,
  type Taint,
} from "@servicenet/api";
import { taintExists } from "../util/node/controller-utils.ts";

/** `UnreachableTaintTemplate`: the Node's Ready condition is Unknown. */
export const unreachableTaintTemplate: Taint = { key: taintNodeUnreachable, effect: "NoExecute" };
/** `NotReadyTaintTemplate`: the Node's Ready condition is False. */
export const notReadyTaintTemplate: Taint = { key: taintNodeNotReady, effect: "NoExecute" };

/** `nodeConditionToTaintKeyStatusMap`: condition type -> status -> NoSchedule taint key. */
export const nodeConditionToTaintKeyStatusMap: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: taintNodeNotReady, Unknown: taintNodeUnreachable },
  MemoryPressure: { True: taintNodeMemoryPressure },
  DiskPressure: { True: taintNodeDiskPressure },
  NetworkUnavailable: { True: taintNodeNetworkUnavailable },
  PIDPressure: { True: taintNodePIDPressure },
};

/** `taintKeyToNodeConditionMap`: the keys above. */
const conditionTaintKeys: ReadonlySet<string> = new Set(Object.values(nodeConditionToTaintKeyStatusMap).flatMap((m) => Object.values(m)));

/**
 * The NoSchedule half of `doNoScheduleTaintingPass`: the taints the Node's conditions (and
 * `spec.unschedulable`) call for, against the condition taints it has (`TaintSetDiff`).
 */
export function noScheduleTaintDiff(node: Node): { add: Taint[]; remove: Taint[] } {
  const want: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = nodeConditionToTaintKeyStatusMap[c.type]?.[c.status];
    if (key !== undefined) want.push({ key, effect: "NoSchedule" });
  }
  if (node.spec.unschedulable === true) want.push({ key: taintNodeUnschedulable, effect: "NoSchedule" });
  const have = (node.spec.taints ?? []).filter(
    (t) => t.effect === "NoSchedule" && (t.key === taintNodeUnschedulable || conditionTaintKeys.has(t.key)),
  );
  return { add: want.filter((t) => !taintExists(have, t)), remove: have.filter((t) => !taintExists(want, t)) };
}
