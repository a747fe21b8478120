/**
 * The proxiers of the rule tests, configured as upstream's NewFakeProxier
 * (pkg/proxy/iptables/proxier_test.go, pkg/proxy/nftables/proxier_test.go) for the node and
 * CIDRs of the TestOverall*Rules Services, and the sync-then-commit step every rule test repeats.
 */
import type { IPFamily } from "@servicenet/api";
import { IptablesProxier, type IptablesProxierOptions } from "../iptables/proxier.ts";
import { NftablesProxier, type NftablesProxierOptions } from "../nftables/proxier.ts";
import { testNodeName } from "./upstream-services.ts";

/** An nftables proxier for IPv4 on the test node (node IP 192.168.0.2, Services 172.30.0.0/16). */
export function newFakeNftablesProxier(extra: Partial<NftablesProxierOptions> = {}): NftablesProxier {
  return new NftablesProxier({
    ipFamily: "IPv4",
    nodeName: testNodeName,
    clusterCIDR: "10.0.0.0/8",
    nodeIPs: ["192.168.0.2"],
    serviceCIDRs: ["172.30.0.0/16"],
    ...extra,
  });
}

/** An iptables proxier for `family` on the test node, with its family's cluster CIDR. */
export function newFakeIptablesProxier(family: IPFamily, extra: Partial<IptablesProxierOptions> = {}): IptablesProxier {
  return new IptablesProxier({
    ipFamily: family,
    nodeName: testNodeName,
    clusterCIDR: family === "IPv4" ? "10.0.0.0/8" : "fd00:10::/64",
    ...extra,
  });
}

/** syncProxyRules, then commit what it produced, as a successful restore would. */
export function syncAndCommit<R>(p: { syncProxyRules(): R | null; commit(r: R): void }): R {
  const r = p.syncProxyRules();
  if (r === null) throw new Error("proxier not initialized");
  p.commit(r);
  return r;
}
