/**
 * startNodeIpamController's flag handling (cmd/kube-controller-manager/app/core.go
 * validateCIDRs, setNodeCIDRMaskSizes; node_ipam_controller.go NewNodeIpamController's checks),
 * with upstream's messages.
 */
import { formatCIDR } from "@servicenet/api/net";
import { describe, expect, it } from "vitest";
import { nodeIpamParams, type NodeIpamOptions } from "./core.ts";

const base: NodeIpamOptions = {
  allocateNodeCIDRs: true,
  clusterCIDR: "",
  serviceCIDR: "",
  nodeCIDRMaskSize: 0,
  nodeCIDRMaskSizeIPv4: 0,
  nodeCIDRMaskSizeIPv6: 0,
};

describe("nodeIpamParams", () => {
  it("is off without --allocate-node-cidrs, whatever the other flags say", () => {
    expect(nodeIpamParams({ ...base, allocateNodeCIDRs: false, clusterCIDR: "bogus" })).toBeUndefined();
  });

  it.each([
    [{ clusterCIDR: "10.244.0.0/16" }, ["10.244.0.0/16"], [24]],
    [{ clusterCIDR: "fd00:10:244::/48" }, ["fd00:10:244::/48"], [64]],
    [{ clusterCIDR: "10.244.0.0/16,fd00:10:244::/56" }, ["10.244.0.0/16", "fd00:10:244::/56"], [24, 64]],
    [{ clusterCIDR: "fd00:10:244::/56,10.244.0.0/16" }, ["fd00:10:244::/56", "10.244.0.0/16"], [64, 24]],
    [
      { clusterCIDR: "10.244.0.0/16,fd00:10:244::/56", nodeCIDRMaskSizeIPv4: 26, nodeCIDRMaskSizeIPv6: 80 },
      ["10.244.0.0/16", "fd00:10:244::/56"],
      [26, 80],
    ],
    [{ clusterCIDR: "10.244.0.0/16", nodeCIDRMaskSize: 20 }, ["10.244.0.0/16"], [20]],
    [{ clusterCIDR: "10.244.0.0/16", nodeCIDRMaskSizeIPv4: 25 }, ["10.244.0.0/16"], [25]],
    [{ clusterCIDR: "fd00::/48", nodeCIDRMaskSizeIPv6: 60 }, ["fd00::/48"], [60]],
    [{ clusterCIDR: "10.244.0.1/16" }, ["10.244.0.0/16"], [24]],
  ])("%j", (flags, clusterCIDRs, masks) => {
    const p = nodeIpamParams({ ...base, ...flags });
    expect(p?.clusterCIDRs.map(formatCIDR)).toEqual(clusterCIDRs);
    expect(p?.nodeCIDRMaskSizes).toEqual(masks);
  });

  it("takes one Service CIDR per family and skips an unparsable one", () => {
    const p = nodeIpamParams({ ...base, clusterCIDR: "10.0.0.0/8,fd00::/48", serviceCIDR: "10.96.0.0/12,fd00:0:0:ffff::/112" });
    expect(p?.serviceCIDR && formatCIDR(p.serviceCIDR)).toBe("10.96.0.0/12");
    expect(p?.secondaryServiceCIDR && formatCIDR(p.secondaryServiceCIDR)).toBe("fd00:0:0:ffff::/112");
    expect(nodeIpamParams({ ...base, clusterCIDR: "10.0.0.0/8", serviceCIDR: "nope" })?.serviceCIDR).toBeUndefined();
  });

  it.each([
    [{ clusterCIDR: "" }, 'failed to parse cidr value:"" with error:invalid CIDR address: '],
    [{ clusterCIDR: "10.0.0.0/33" }, 'failed to parse cidr value:"10.0.0.0/33" with error:invalid CIDR address: 10.0.0.0/33'],
    [{ clusterCIDR: "10.0.0.0/16, fd00::/48" }, 'failed to parse cidr value:" fd00::/48" with error:invalid CIDR address:  fd00::/48'],
    [
      { clusterCIDR: "10.0.0.0/16,10.1.0.0/16" },
      "len of ClusterCIDRs==2 and they are not configured as dual stack (at least one from each IPFamily",
    ],
    [{ clusterCIDR: "10.0.0.0/16,fd00::/48,10.1.0.0/16" }, "length of clusterCIDRs is:3 more than max allowed of 2"],
    [
      { clusterCIDR: "10.0.0.0/16,fd00::/48", nodeCIDRMaskSize: 24 },
      "usage of --node-cidr-mask-size is not allowed with dual-stack clusters",
    ],
    [
      { clusterCIDR: "10.0.0.0/16", nodeCIDRMaskSize: 24, nodeCIDRMaskSizeIPv4: 24 },
      "usage of --node-cidr-mask-size-ipv4 and --node-cidr-mask-size-ipv6 is not allowed if --node-cidr-mask-size is set. For dual-stack clusters please unset it and use IPFamily specific flags",
    ],
    [
      { clusterCIDR: "fd00::/48", nodeCIDRMaskSizeIPv4: 24 },
      "usage of --node-cidr-mask-size-ipv4 is not allowed for a single-stack IPv6 cluster",
    ],
    [
      { clusterCIDR: "10.0.0.0/16", nodeCIDRMaskSizeIPv6: 64 },
      "usage of --node-cidr-mask-size-ipv6 is not allowed for a single-stack IPv4 cluster",
    ],
    [
      { clusterCIDR: "10.0.0.0/26" },
      "Controller: Invalid --cluster-cidr, mask size of cluster CIDR must be less than or equal to --node-cidr-mask-size configured for CIDR family",
    ],
    [
      { clusterCIDR: "10.0.0.0/24,2000::/64", nodeCIDRMaskSizeIPv6: 48 },
      "Controller: Invalid --cluster-cidr, mask size of cluster CIDR must be less than or equal to --node-cidr-mask-size configured for CIDR family",
    ],
    [
      { clusterCIDR: "10.0.0.0/8", serviceCIDR: "10.96.0.0/12,10.97.0.0/16" },
      "serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)",
    ],
  ])("%j fails", (flags, message) => {
    expect(() => nodeIpamParams({ ...base, ...flags })).toThrow(message);
  });
});
