/** Options and results of the iptables proxier. */
import type { BaseProxierOptions } from "../proxy/base-proxier.ts";
import type { ChunkedText } from "../util/text.ts";

export interface IptablesProxierOptions extends BaseProxierOptions {
  /** Pod CIDR of this family for `DetectLocalByCIDR`; "" or absent: no local detector. */
  readonly clusterCIDR?: string;
  readonly masqueradeAll?: boolean;
  /** Bit of the masquerade mark (default 14, i.e. 0x4000). */
  readonly masqueradeBit?: number;
  /** Accept NodePorts on 127.0.0.1 (IPv4 only; the dual-stack constructor passes false for IPv6). */
  readonly localhostNodePorts?: boolean;
  /** The iptables binary supports MASQUERADE --random-fully. */
  readonly randomFully?: boolean;
  /** nf_conntrack_tcp_be_liberal is set: no INVALID drop rule. */
  readonly conntrackTCPLiberal?: boolean;
  /** Node IPs of this family; with `nodePortAddresses` set, NodePorts only on these. */
  readonly nodeIPs?: readonly string[];
  /** Restrict NodePorts to `nodeIPs` instead of every local address. */
  readonly nodePortAddressesRestricted?: boolean;
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
