/**
 * The checks and wiring of upstream's pkg/controller/nodeipam/node_ipam_controller.go
 * `NewNodeIpamController` for the RangeAllocator, the one allocator type kube-controller-manager
 * runs without a cloud provider.
 */
import { familyBits } from "@servicenet/api/net";
import type { CIDRAllocatorParams } from "./ipam/range-allocator.ts";

/** `NewNodeIpamController`'s refusal of a cluster CIDR smaller than its node blocks. */
export const errClusterCIDRMaskSize =
  "Controller: Invalid --cluster-cidr, mask size of cluster CIDR must be less than or equal to --node-cidr-mask-size configured for CIDR family";
/** `NewNodeIpamController`'s refusal of an empty --cluster-cidr. */
export const errNoClusterCIDR = "Controller: Must specify --cluster-cidr if --allocate-node-cidrs is set";

/**
 * `NewNodeIpamController`'s validation: at least one cluster CIDR, each no smaller than its node
 * blocks (and the blocks no longer than the family's address, which Go's CIDRMask would refuse).
 * @throws Error with upstream's message.
 */
export function validateNodeIpamParams(p: CIDRAllocatorParams): void {
  if (p.clusterCIDRs.length === 0) throw new Error(errNoClusterCIDR);
  p.clusterCIDRs.forEach((cidr, idx) => {
    const size = p.nodeCIDRMaskSizes[idx] ?? 0;
    if (cidr.prefix > size) throw new Error(errClusterCIDRMaskSize);
    if (size > familyBits(cidr.family)) throw new Error(`invalid --node-cidr-mask-size ${size} for ${cidr.family} cluster CIDR`);
  });
}
