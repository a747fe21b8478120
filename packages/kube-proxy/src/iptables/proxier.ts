/**
 * The iptables proxier for one IP family: renders one `iptables-restore` input
 * (filter and nat) per sync, full or partial (KEP-3453), as upstream's
 * syncProxyRules does.
 */
import { containsIP } from "@servicenet/api";
import { BaseProxier } from "../proxy/base-proxier.ts";
import type { Endpoint } from "../proxy/endpoint.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import type { TopologyContext } from "../proxy/topology.ts";
import { chainLine, chains, endpointChainName, serviceChainNames } from "./names.ts";
import { chunkedText } from "../util/text.ts";
import { forwardRules, kubeletFirewallRule, masqueradeRules, nodePortsJumpRules } from "./fixed-rules.ts";
import { writeServicePortRules } from "./service-rules.ts";
import type { IptablesProxierOptions, IptablesSyncResult } from "./types.ts";
import { proxierLocalDetector } from "../util/local-detector.ts";
import type { LocalTrafficDetector } from "../util/local-detector.ts";
import { hostInterfaceAddrs, NodePortAddresses } from "../util/nodeport-addresses.ts";

export type { IptablesProxierOptions, IptablesSyncResult } from "./types.ts";
import type { ServiceWriteContext } from "./service-rules.ts";

/** Above this many endpoints comments are dropped (`largeClusterEndpointsThreshold`). */
export const largeClusterEndpointsThreshold = 1000;

/** The rendered lines of one service port, reused while its inputs are the same objects. */
interface RenderedService {
  readonly svc: ServicePortInfo;
  readonly eps: readonly Endpoint[];
  readonly large: boolean;
  /** The node's topology it was rendered for (hints depend on the zone). */
  readonly topo: TopologyContext;
  // Pre-joined text blocks ("" or lines each ending in "\n"): a sync concatenates
  // ten thousand blocks instead of pushing and joining a third of a million lines.
  readonly filter: string;
  readonly filterCount: number;
  /** KUBE-SERVICES / KUBE-NODEPORTS rules: written on every sync. */
  readonly natTop: string;
  readonly natTopCount: number;
  /** The service's own chains: written on full syncs and when the service changed. */
  readonly chains: string;
  readonly rules: string;
  readonly rulesCount: number;
  /** Its chains (a list: a Set per service costs more than the rare stale diff). */
  readonly active: readonly string[];
  readonly noLocalInternal: boolean;
  readonly noLocalExternal: boolean;
}

const noEndpoints: readonly Endpoint[] = Object.freeze([]);

export class IptablesProxier extends BaseProxier {
  readonly #opts: IptablesProxierOptions;
  readonly #mark: string;
  readonly #localDetector: LocalTrafficDetector;
  readonly #nodePortAddresses: NodePortAddresses;
  /** Localhost NodePorts: asked for, IPv4, and 127.0.0.0/8 inside the NodePort addresses (as NewProxier decides). */
  readonly #localhostNodePorts: boolean;
  readonly #rendered = new Map<string, RenderedService>();
  /** Chains that no service produces any more and that are not deleted yet (kept until a restore succeeds). */
  #staleChains = new Set<string>();
  #pendingStale: Set<string> | undefined;

  constructor(opts: IptablesProxierOptions) {
    super(opts);
    this.#opts = opts;
    this.#mark = `0x${(1 << (opts.masqueradeBit ?? 14)).toString(16)}`;
    this.#localDetector = proxierLocalDetector(opts);
    this.#nodePortAddresses = new NodePortAddresses(opts.ipFamily, opts.nodePortAddresses);
    this.#localhostNodePorts =
      opts.ipFamily === "IPv4" && (opts.localhostNodePorts ?? true) && this.#nodePortAddresses.containsIPv4Loopback;
  }

  /** Whether this proxier accepts NodePorts on 127.0.0.1 (route_localnet must then be 1). */
  get localhostNodePorts(): boolean {
    return this.#localhostNodePorts;
  }

  /** The masquerade mark as written in rules ("0x4000"). */
  get masqueradeMark(): string {
    return this.#mark;
  }

  /** Renders the rules, or returns null while not initialized (nothing may be written yet). */
  syncProxyRules(): IptablesSyncResult | null {
    if (!this.isInitialized()) return null;
    const { full, endpoints } = this.takeChanges();
    // `data` (the complete `iptables-restore --noflush` input) is a lazy getter: no spreading.
    return Object.assign(this.#render(full), { family: this.ipFamily, full, lastChangeTriggerTimes: endpoints.lastChangeTriggerTimes });
  }

  /** The runner reports a successful restore: the stale chains it deleted are gone. */
  commit(result: IptablesSyncResult): void {
    if (this.#pendingStale !== undefined) {
      for (const c of this.#pendingStale) this.#staleChains.delete(c);
      this.#pendingStale = undefined;
    }
    this.markSynced(result.full);
  }

  #render(full: boolean) {
    const m = this.#mark;
    const v6 = this.ipFamily === "IPv6";
    const localhostNodePorts = this.#localhostNodePorts;
    const filterChains = [chains.services, chains.externalServices, chains.forward, chains.nodePorts, chains.proxyFirewall].map(chainLine);
    const natChains = [chains.services, chains.nodePorts, chains.postrouting, chains.markMasq].map(chainLine);
    const filterRules: string[] = [];
    const natRules = masqueradeRules(m, this.#opts.randomFully ?? true);
    if (localhostNodePorts) {
      filterChains.push(chainLine(chains.kubeletFirewall));
      filterRules.push(kubeletFirewallRule);
    }
    let totalEndpoints = 0;
    for (const key of this.svcPortMap.keys()) totalEndpoints += this.endpointsMap.get(key)?.length ?? 0;
    const large = totalEndpoints > largeClusterEndpointsThreshold;
    let skippedRules = 0;
    let filterCount = 0;
    let natCount = 0;
    const filterBlocks: string[] = [];
    const natBlocks: string[] = [];
    const chainBlocks: string[] = [];
    let noLocalInternal = 0;
    let noLocalExternal = 0;
    for (const [key, svc] of this.svcPortMap) {
      const eps = this.endpointsMap.get(key) ?? noEndpoints;
      let r = this.#rendered.get(key);
      const fresh = r === undefined || r.svc !== svc || r.eps !== eps || r.large !== large || r.topo !== this.topology;
      if (fresh) {
        const next = this.#renderService(svc, eps, large);
        if (r !== undefined) {
          const now = new Set(next.active);
          for (const c of r.active) if (!now.has(c)) this.#staleChains.add(c);
        }
        if (this.#staleChains.size > 0) for (const c of next.active) this.#staleChains.delete(c);
        this.#rendered.set(key, (r = next));
      }
      if (r === undefined) continue;
      if (r.filterCount > 0) filterBlocks.push(r.filter);
      if (r.natTopCount > 0) natBlocks.push(r.natTop);
      filterCount += r.filterCount;
      natCount += r.natTopCount;
      // An unchanged service is left out of a partial restore: --noflush keeps its chains as they are.
      if (full || fresh) {
        if (r.chains !== "") chainBlocks.push(r.chains);
        if (r.rulesCount > 0) natBlocks.push(r.rules);
        natCount += r.rulesCount;
      } else {
        skippedRules += r.rulesCount;
      }
      if (r.noLocalInternal) noLocalInternal++;
      if (r.noLocalExternal) noLocalExternal++;
    }
    for (const [key, r] of this.#rendered) {
      if (this.svcPortMap.has(key)) continue;
      for (const c of r.active) this.#staleChains.add(c);
      this.#rendered.delete(key);
    }
    // Chains no sync needs any more: flush them with their chain line, then delete them.
    const staleLines: string[] = [];
    const deleteLines: string[] = [];
    for (const chain of this.#staleChains) {
      staleLines.push(chainLine(chain));
      deleteLines.push(`-X ${chain}`);
    }
    const deletedChains = this.#staleChains.size;
    this.#pendingStale = new Set(this.#staleChains);
    const tail: string[] = [...deleteLines];
    const npa = this.#nodePortAddresses;
    // Matched again on every sync, as upstream: addresses come and go.
    const nodePortIPs = npa.matchAll ? undefined : npa.getNodeIPs(this.#opts.interfaceAddrs ?? hostInterfaceAddrs);
    tail.push(...nodePortsJumpRules(v6, localhostNodePorts, nodePortIPs));
    const forward = forwardRules(m, this.#opts.conntrackTCPLiberal ?? false);
    const text = chunkedText(
      [
        "*filter\n",
        join(filterChains),
        join(filterRules),
        ...filterBlocks,
        join(forward),
        "COMMIT\n*nat\n",
        join(natChains),
        ...chainBlocks,
        join(staleLines),
        join(natRules),
        ...natBlocks,
        join(tail),
        "COMMIT\n",
      ],
      "",
      "",
    );
    const filterTotal = filterRules.length + filterCount + forward.length;
    const natWritten = natRules.length + natCount + tail.length - deleteLines.length;
    return Object.assign(text, {
      filterRules: filterTotal,
      natRulesTotal: natWritten + skippedRules,
      natRulesLast: natWritten,
      deletedChains,
      noLocalEndpointsInternal: noLocalInternal,
      noLocalEndpointsExternal: noLocalExternal,
    });
  }

  #renderService(svc: ServicePortInfo, eps: readonly Endpoint[], large: boolean): RenderedService {
    const filter: string[] = [];
    const natTop: string[] = [];
    const svcChains: string[] = [];
    const rules: string[] = [];
    const active: string[] = [];
    const proto = svc.protocol.toLowerCase();
    const ctx: ServiceWriteContext = {
      filterRules: filter,
      natRules: natTop,
      svcChains,
      svcRules: rules,
      activeNatChains: active,
      localDetector: this.#localDetector,
      masqueradeAll: this.#opts.masqueradeAll ?? false,
      largeClusterMode: large,
      nodeIPs: this.#opts.nodeIPs ?? [],
      names: serviceChainNames(svc.nameString, proto),
      endpointChain: (ep) => (ep.memo.iptablesChain ??= endpointChainName(svc.nameString, proto, ep.endpoint)),
      cidrContains: containsIP,
      topology: this.topology,
    };
    const stats = writeServicePortRules(ctx, svc, eps);
    return {
      svc,
      eps,
      large,
      topo: this.topology,
      filter: join(filter),
      filterCount: filter.length,
      natTop: join(natTop),
      natTopCount: natTop.length,
      chains: join(svcChains),
      rules: join(rules),
      rulesCount: rules.length,
      active,
      noLocalInternal: stats.noLocalInternal,
      noLocalExternal: stats.noLocalExternal,
    };
  }
}

/** Lines joined with a trailing newline ("" for none). */
function join(lines: readonly string[]): string {
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}
