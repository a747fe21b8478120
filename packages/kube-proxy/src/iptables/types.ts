/** Options and results of the iptables proxier. */
import type { BaseProxierOptions } from "../proxy/base-proxier.ts";
import type { ChunkedText } from "../util/text.ts";
import type { LocalTrafficDetector } from "../util/local-detector.ts";
import type { InterfaceAddrs } from "../util/nodeport-addresses.ts";

export interface IptablesProxierOptions extends BaseProxierOptions {
  /** Pod CIDR of this family, shorthand for `localDetector: detectLocalByCIDR(clusterCIDR)`; "" or absent: none. */
  readonly clusterCIDR?: string;
  /** The local-traffic detector (`--detect-local-mode`); wins over `clusterCIDR`. */
  readonly localDetector?: LocalTrafficDetector;
  readonly masqueradeAll?: boolean;
  /** Bit of the masquerade mark (default 14, i.e. 0x4000). */
  readonly masqueradeBit?: number;
  /** Accept NodePorts on 127.0.0.1 (IPv4 only; the dual-stack constructor passes false for IPv6). */
  readonly localhostNodePorts?: boolean;
  /** The iptables binary supports MASQUERADE --random-fully. */
  readonly randomFully?: boolean;
  /** nf_conntrack_tcp_be_liberal is set: no INVALID drop rule. */
  readonly conntrackTCPLiberal?: boolean;
  /** Node IPs of this family (LoadBalancerSourceRanges that contain one also admit the VIPs as sources). */
  readonly nodeIPs?: readonly string[];
  /** `--nodeport-addresses` CIDRs (either family; none of this family: every local address). */
  readonly nodePortAddresses?: readonly string[];
  /** This host's addresses, matched against `nodePortAddresses` on every sync (default: the interfaces). */
  readonly interfaceAddrs?: InterfaceAddrs;
}

/** One rendered sync, handed to the runner. */
export interface IptablesSyncResult extends ChunkedText {
  readonly family: BaseProxierOptions["ipFamily"];
  readonly full: boolean;
  readonly filterRules: number;
  /** nat rules including those of skipped (unchanged) chains: `sync_proxy_rules_iptables_total{table="nat"}`. */
  readonly natRulesTotal: number;
  /** nat rules actually written this sync: `sync_proxy_rules_iptables_last{table="nat"}`. */
  readonly natRulesLast: number;
  readonly deletedChains: number;
  readonly noLocalEndpointsInternal: number;
  readonly noLocalEndpointsExternal: number;
  readonly lastChangeTriggerTimes: ReadonlyMap<string, readonly number[]>;
}
