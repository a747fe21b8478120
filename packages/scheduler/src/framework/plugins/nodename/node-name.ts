/** pkg/scheduler/framework/plugins/nodename/node_name.go: a Pod asking for a Node by name fits only there. */
import type { Pod } from "@servicenet/api";
import { status, type FilterPlugin, type NodeInfo, type Status } from "../../types.ts";

export const nodeNameName = "NodeName";
/** `ErrReason`. */
export const nodeNameErrReason = "node(s) didn't match the requested node name";

export const nodeName: FilterPlugin = {
  name: nodeNameName,
  filter(pod: Pod, node: NodeInfo): Status | null {
    const want = pod.spec.nodeName ?? "";
    return want === "" || want === node.node.metadata.name ? null : status(nodeNameName, "UnschedulableAndUnresolvable", nodeNameErrReason);
  },
};
