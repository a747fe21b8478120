/** The KubeProxyConfiguration fields the command line sets (pkg/proxy/apis/config/types.go). */

/** `LocalMode`: how the proxiers tell traffic from this node's pods. */
export const localModes = ["ClusterCIDR", "NodeCIDR", "BridgeInterface", "InterfaceNamePrefix"] as const;
export type LocalMode = (typeof localModes)[number];

/** `NodePortAddressesPrimary`: NodePorts only on the node's primary IP of each family. */
export const nodePortAddressesPrimary = "primary";

/** `DetectLocalConfiguration`. */
export interface DetectLocalConfiguration {
  readonly bridgeInterface: string;
  readonly interfaceNamePrefix: string;
  /** `--cluster-cidr`, one CIDR or a dual-stack pair. */
  readonly clusterCIDRs: readonly string[];
}
