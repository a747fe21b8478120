/**
 * The iptables proxier for one IP family: renders one `iptables-restore` input
 * (filter and nat) per sync, full or partial (KEP-3453), as upstream's
 * syncProxyRules does.
 */
import { cidrContains, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import { BaseProxier } from "../proxy/base-proxier.ts";
import type { BaseProxierOptions } from "../proxy/base-proxier.ts";
import type { Endpoint } from "../proxy/endpoint.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import { namespacedNameString } from "../proxy/service-port-name.ts";
import { chainLine, chains, endpointChainName, isServiceChainName, serviceChainNames } from "./names.ts";
import type { ServiceChainNames } from "./names.ts";
import { writeServicePortRules } from "./service-rules.ts";
import type { ServiceWriteContext } from "./service-rules.ts";

/** Above this many endpoints comments are dropped (`largeClusterEndpointsThreshold`). */
export const largeClusterEndpointsThreshold = 1000;

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
export interface IptablesSyncResult {
  readonly family: BaseProxierOptions["ipFamily"];
  readonly full: boolean;
  /** The complete `iptables-restore --noflush` input. */
  readonly data: string;
  readonly filterRules: number;
  /** nat rules including those of skipped (unchanged) chains: `sync_proxy_rules_iptables_total{table="nat"}`. */
  readonly natRulesTotal: number;
  /** nat rules actually written this sync: `sync_proxy_rules_iptables_last{table="nat"}`. */
  readonly natRulesLast: number;
  readonly deletedChains: number;
  readonly noLocalEndpointsInternal: number;
  readonly noLocalEndpointsExternal: number;
  readonly lastChangeTriggerTimes: ReadonlyMap<string, readonly number[]>;
  readonly activeNatChains: ReadonlySet<string>;
}

export class IptablesProxier extends BaseProxier {
  readonly #opts: IptablesProxierOptions;
  readonly #mark: string;
  /** nat chains of the last applied sync: what stale-chain cleanup compares with. */
  #appliedNatChains = new Set<string>();
  readonly #serviceNames = new WeakMap<ServicePortInfo, ServiceChainNames>();
  readonly #endpointNames = new WeakMap<Endpoint, string>();

  constructor(opts: IptablesProxierOptions) {
    super(opts);
    this.#opts = opts;
    this.#mark = `0x${(1 << (opts.masqueradeBit ?? 14)).toString(16)}`;
  }

  /** The masquerade mark as written in rules ("0x4000"). */
  get masqueradeMark(): string {
    return this.#mark;
  }

  /** Renders the rules, or returns null while not initialized (nothing may be written yet). */
  syncProxyRules(): IptablesSyncResult | null {
    if (!this.isInitialized()) return null;
    const { full, services, endpoints } = this.takeChanges();
    const changed = new Set([...services.updatedServices, ...endpoints.updatedServices]);
    const out = this.#render(full, changed);
    return { ...out, family: this.ipFamily, full, lastChangeTriggerTimes: endpoints.lastChangeTriggerTimes };
  }

  /** The runner reports a successful restore: remember what is now in the kernel. */
  commit(result: IptablesSyncResult): void {
    this.#appliedNatChains = new Set(result.activeNatChains);
    this.markSynced(result.full);
  }

  #render(full: boolean, changed: ReadonlySet<string>) {
    const m = this.#mark;
    const v6 = this.ipFamily === "IPv6";
    const localhostNodePorts = !v6 && (this.#opts.localhostNodePorts ?? true);
    const filterChains = [chains.services, chains.externalServices, chains.forward, chains.nodePorts, chains.proxyFirewall].map(chainLine);
    const natChains = [chains.services, chains.nodePorts, chains.postrouting, chains.markMasq].map(chainLine);
    const filterRules: string[] = [];
    const natRules: string[] = [
      `-A ${chains.postrouting} -m mark ! --mark ${m}/${m} -j RETURN`,
      `-A ${chains.postrouting} -j MARK --xor-mark ${m}`,
      `-A ${chains.postrouting} -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE${this.#opts.randomFully === false ? "" : " --random-fully"}`,
      `-A ${chains.markMasq} -j MARK --or-mark ${m}`,
    ];
    if (localhostNodePorts) {
      filterChains.push(chainLine(chains.kubeletFirewall));
      filterRules.push(
        `-A ${chains.kubeletFirewall} -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP`,
      );
    }
    const activeNatChains = new Set<string>();
    let totalEndpoints = 0;
    for (const key of this.svcPortMap.keys()) totalEndpoints += this.endpointsMap.get(key)?.length ?? 0;
    const skippedChains: string[] = [];
    const skippedRules: string[] = [];
    let noLocalInternal = 0;
    let noLocalExternal = 0;
    const base = {
      filterRules,
      natRules,
      activeNatChains,
      clusterCIDR: this.#opts.clusterCIDR ?? "",
      masqueradeAll: this.#opts.masqueradeAll ?? false,
      largeClusterMode: totalEndpoints > largeClusterEndpointsThreshold,
      nodeIPs: this.#opts.nodeIPs ?? [],
      cidrContains: containsIP,
    };
    for (const [key, svc] of this.svcPortMap) {
      const skip = !full && !changed.has(namespacedNameString(svc.name));
      const ctx: ServiceWriteContext = {
        ...base,
        svcChains: skip ? skippedChains : natChains,
        svcRules: skip ? skippedRules : natRules,
        names: this.#namesOf(svc),
        endpointChain: (ep) => this.#endpointChainOf(svc, ep),
      };
      const stats = writeServicePortRules(ctx, svc, this.endpointsMap.get(key) ?? []);
      if (stats.noLocalInternal) noLocalInternal++;
      if (stats.noLocalExternal) noLocalExternal++;
    }
    // Chains we created earlier that no sync needs any more: flush and delete them.
    let deletedChains = 0;
    for (const chain of this.#appliedNatChains) {
      if (activeNatChains.has(chain) || !isServiceChainName(chain)) continue;
      natChains.push(chainLine(chain));
      natRules.push(`-X ${chain}`);
      deletedChains++;
    }
    this.#writeNodePortsJump(natRules, v6, localhostNodePorts);
    if (!this.#opts.conntrackTCPLiberal) filterRules.push(`-A ${chains.forward} -m conntrack --ctstate INVALID -j DROP`);
    filterRules.push(`-A ${chains.forward} -m comment --comment "kubernetes forwarding rules" -m mark --mark ${m}/${m} -j ACCEPT`);
    filterRules.push(`-A ${chains.forward} -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`);
    const data = ["*filter", ...filterChains, ...filterRules, "COMMIT", "*nat", ...natChains, ...natRules, "COMMIT", ""].join("\n");
    return {
      data,
      filterRules: filterRules.length,
      natRulesTotal: natRules.length + skippedRules.length - deletedChains,
      natRulesLast: natRules.length - deletedChains,
      deletedChains,
      noLocalEndpointsInternal: noLocalInternal,
      noLocalEndpointsExternal: noLocalExternal,
      activeNatChains,
    };
  }

  /** The tail call to KUBE-NODEPORTS; it must stay the last rule of KUBE-SERVICES. */
  #writeNodePortsJump(natRules: string[], v6: boolean, localhostNodePorts: boolean): void {
    const c = `-A ${chains.services} -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain"`;
    if (!this.#opts.nodePortAddressesRestricted) {
      const dest = v6 ? " ! -d ::1/128" : localhostNodePorts ? "" : " ! -d 127.0.0.0/8";
      natRules.push(`${c} -m addrtype --dst-type LOCAL${dest} -j ${chains.nodePorts}`);
      return;
    }
    for (const ip of this.#opts.nodeIPs ?? []) {
      const loopback = v6 ? ip === "::1" : ip.startsWith("127.");
      if (loopback && (v6 || !localhostNodePorts)) continue;
      natRules.push(`${c} -d ${ip} -j ${chains.nodePorts}`);
    }
  }

  #namesOf(svc: ServicePortInfo): ServiceChainNames {
    let n = this.#serviceNames.get(svc);
    if (n === undefined) this.#serviceNames.set(svc, (n = serviceChainNames(svc.nameString, svc.protocol.toLowerCase())));
    return n;
  }

  #endpointChainOf(svc: ServicePortInfo, ep: Endpoint): string {
    let n = this.#endpointNames.get(ep);
    if (n === undefined) this.#endpointNames.set(ep, (n = endpointChainName(svc.nameString, svc.protocol.toLowerCase(), ep.endpoint)));
    return n;
  }
}

function containsIP(cidr: string, ip: string): boolean {
  const c = parseCIDRSloppy(cidr);
  const a = parseIPSloppy(ip);
  return c !== null && a !== null && cidrContains(c, a);
}
