/** The taint keys Kubernetes itself sets (k8s.io/api/core/v1/well_known_taints.go). */

/** The Node's Ready condition is False. */
export const taintNodeNotReady = "node.kubernetes.io/not-ready";
/** The Node's Ready condition is Unknown (the node controller lost touch with it). */
export const taintNodeUnreachable = "node.kubernetes.io/unreachable";
/** The Node is cordoned (`spec.unschedulable`). */
export const taintNodeUnschedulable = "node.kubernetes.io/unschedulable";
export const taintNodeMemoryPressure = "node.kubernetes.io/memory-pressure";
export const taintNodeDiskPressure = "node.kubernetes.io/disk-pressure";
export const taintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable";
export const taintNodePIDPressure = "node.kubernetes.io/pid-pressure";
/** Set while a kubelet with an external cloud provider waits for the cloud-node controller. */
export const taintNodeOutOfService = "node.kubernetes.io/out-of-service";
