/** pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go: cordoned Nodes take only Pods that tolerate it. */
import { toleratesTaint, type Pod } from "@servicenet/api";
import { tolerationsOf } from "../tainttoleration/taint-toleration.ts";
import { status, type FilterPlugin, type NodeInfo, type Status } from "../../types.ts";

export const nodeUnschedulableName = "NodeUnschedulable";
/** `ErrReasonUnschedulable`. */
export const errReasonUnschedulable = "node(s) were unschedulable";

const unschedulableTaint = { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" };

export const nodeUnschedulable: FilterPlugin = {
  name: nodeUnschedulableName,
  filter(pod: Pod, node: NodeInfo): Status | null {
    if (node.node.spec.unschedulable !== true) return null;
    if (tolerationsOf(pod).some((t) => toleratesTaint(t, unschedulableTaint))) return null;
    return status(nodeUnschedulableName, "UnschedulableAndUnresolvable", errReasonUnschedulable);
  },
};
