/**
 * The nftables proxier for one IP family: one `nft -f` transaction per sync on
 * table `ip kube-proxy` / `ip6 kube-proxy`. A full sync flushes and rebuilds
 * the table; a partial sync rewrites only the chains of changed Services and
 * adds/deletes only the map elements that changed.
 */
import { containsIP } from "@servicenet/api";
import { BaseProxier } from "../proxy/base-proxier.ts";
import type { BaseProxierOptions } from "../proxy/base-proxier.ts";
import type { Endpoint } from "../proxy/endpoint.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import type { TopologyContext } from "../proxy/topology.ts";
import { baseRules } from "./base-rules.ts";
import { addElementLine, diffElements } from "./element-storage.ts";
import type { Element } from "./element-storage.ts";
import { kubeProxyTable, nftEndpointChainBase, nftFamily, nftServiceChainBase } from "./names.ts";
import { chunkedText } from "../util/text.ts";
import type { ChunkedText } from "../util/text.ts";
import { serviceObjects } from "./service-rules.ts";
import { proxierLocalDetector } from "../util/local-detector.ts";
import type { LocalTrafficDetector } from "../util/local-detector.ts";
import { hostInterfaceAddrs, NodePortAddresses } from "../util/nodeport-addresses.ts";
import type { InterfaceAddrs } from "../util/nodeport-addresses.ts";
import type { ServiceObjects } from "./service-rules.ts";

export interface NftablesProxierOptions extends BaseProxierOptions {
  /** Pod CIDR of this family, shorthand for `localDetector: detectLocalByCIDR(clusterCIDR)`; "" or absent: none. */
  readonly clusterCIDR?: string;
  /** The local-traffic detector (`--detect-local-mode`); wins over `clusterCIDR`. */
  readonly localDetector?: LocalTrafficDetector;
  readonly masqueradeAll?: boolean;
  readonly masqueradeBit?: number;
  /** Node IPs of this family (LoadBalancerSourceRanges that contain one also admit the VIPs as sources). */
  readonly nodeIPs?: readonly string[];
  /**
   * `--nodeport-addresses` CIDRs (either family): the local addresses inside them fill `nodeport-ips`;
   * none of this family: every local non-loopback address (`fib daddr type local`).
   */
  readonly nodePortAddresses?: readonly string[];
  /** This host's addresses, matched against `nodePortAddresses` on full syncs (default: the interfaces). */
  readonly interfaceAddrs?: InterfaceAddrs;
  /** Service CIDRs known at start; later ones come from onServiceCIDRsChanged. */
  readonly serviceCIDRs?: readonly string[];
  /** Stale chains are flushed at once but deleted this much later (kernels < 6.2 keep references briefly). */
  readonly staleChainDelayMs?: number;
}

/** `data` is the `nft -f -` input. */
export interface NftablesSyncResult extends ChunkedText {
  readonly family: BaseProxierOptions["ipFamily"];
  readonly full: boolean;
  /** Service/endpoint chains written in this transaction. */
  readonly chainsWritten: number;
  readonly elementsAdded: number;
  readonly elementsDeleted: number;
  readonly chainsDeleted: number;
  /** Elements per set/map after this sync. */
  readonly elementCounts: ReadonlyMap<string, number>;
  readonly noLocalEndpointsInternal: number;
  readonly noLocalEndpointsExternal: number;
  readonly lastChangeTriggerTimes: ReadonlyMap<string, readonly number[]>;
}

/** What one service port rendered to, reused while its inputs are the same objects. */
interface RenderedService {
  readonly svc: ServicePortInfo;
  readonly eps: readonly Endpoint[];
  /** The node's topology it was rendered for (hints depend on the zone). */
  readonly topo: TopologyContext;
  readonly elements: readonly Element[];
  readonly chainCount: number;
  readonly noLocalInternal: boolean;
  readonly noLocalExternal: boolean;
  /** Pre-joined statements for a full sync (after a table flush): declarations and rules, then elements. */
  readonly fullText: string;
  readonly elementsText: string;
}

const noEndpoints: readonly Endpoint[] = Object.freeze([]);

export class NftablesProxier extends BaseProxier {
  readonly #opts: NftablesProxierOptions;
  readonly #mark: string;
  readonly #fam: ReturnType<typeof nftFamily>;
  readonly #prefix: string;
  readonly #localDetector: LocalTrafficDetector;
  readonly #nodePortAddresses: NodePortAddresses;
  readonly #rendered = new Map<string, RenderedService>();
  /** Objects no service uses any more, with the time they became unused (as last committed). */
  #stale = new Map<string, number>();
  #pendingStale: Map<string, number> | undefined;

  constructor(opts: NftablesProxierOptions) {
    super(opts);
    this.#opts = opts;
    this.#mark = `0x${(1 << (opts.masqueradeBit ?? 14)).toString(16)}`;
    this.#fam = nftFamily(opts.ipFamily);
    this.#prefix = `${this.#fam.table} ${kubeProxyTable}`;
    this.serviceCIDRs = [...(opts.serviceCIDRs ?? [])];
    this.serviceCIDRsInBaseRules = true;
    this.#localDetector = proxierLocalDetector(opts);
    this.#nodePortAddresses = new NodePortAddresses(opts.ipFamily, opts.nodePortAddresses);
  }

  /** Renders the transaction, or null while not initialized. */
  syncProxyRules(): NftablesSyncResult | null {
    if (!this.isInitialized()) return null;
    const { full, endpoints } = this.takeChanges();
    const t = this.#prefix;
    const tx: string[] = [`add table ${t} { comment "rules for kube-proxy" ; }`];
    if (full) {
      tx.push(`flush table ${t}`);
      const npa = this.#nodePortAddresses;
      const nodePortIPs = npa.matchAll ? undefined : npa.getNodeIPs(this.#opts.interfaceAddrs ?? hostInterfaceAddrs);
      tx.push(...baseRules({ family: this.ipFamily, mark: this.#mark, serviceCIDRs: this.serviceCIDRs, nodePortIPs }));
    }
    const deletes: string[] = [];
    const adds: string[] = [];
    const unused = new Set<string>();
    const used = new Set<string>();
    let chainsWritten = 0;
    let noLocalInternal = 0;
    let noLocalExternal = 0;
    for (const [key, svc] of this.svcPortMap) {
      const eps = this.endpointsMap.get(key) ?? noEndpoints;
      const old = this.#rendered.get(key);
      const fresh = old === undefined || old.svc !== svc || old.eps !== eps || old.topo !== this.topology;
      let r = old;
      if (fresh) {
        const { rendered, objs } = this.#renderService(svc, eps);
        r = rendered;
        // Names are not kept per service (110k strings surviving every sync cost GC time); a
        // changed service's previous names come from rendering its previous inputs again.
        const oldNames = old === undefined ? undefined : this.#namesOf(old);
        if (oldNames !== undefined || this.#stale.size > 0 || unused.size > 0) {
          const names = namesOf(objs);
          if (oldNames !== undefined) for (const n of oldNames) if (!names.has(n)) unused.add(n);
          // Only names that were or are about to become stale matter for the stale bookkeeping.
          if (this.#stale.size > 0 || unused.size > 0) for (const n of names) if (this.#stale.has(n) || unused.has(n)) used.add(n);
        }
        if (!full) {
          diffElements(t, old?.elements ?? [], r.elements, deletes, adds);
          chainsWritten += this.#writeService(tx, objs, oldNames);
        }
        this.#rendered.set(key, r);
      }
      if (r === undefined) continue;
      if (full) {
        if (r.fullText !== "") tx.push(r.fullText);
        if (r.elementsText !== "") adds.push(r.elementsText);
        chainsWritten += r.chainCount;
      }
      if (r.noLocalInternal) noLocalInternal++;
      if (r.noLocalExternal) noLocalExternal++;
    }
    for (const [key, r] of this.#rendered) {
      if (this.svcPortMap.has(key)) continue;
      for (const n of this.#namesOf(r)) unused.add(n);
      if (!full) diffElements(t, r.elements, [], deletes, adds);
      this.#rendered.delete(key);
    }
    for (const l of deletes) tx.push(l);
    for (const l of adds) tx.push(l);
    const deleted = this.#staleObjects(tx, unused, used, full);
    return Object.assign(chunkedText(tx, "\n", "\n"), {
      family: this.ipFamily,
      full,
      chainsWritten,
      elementsAdded: adds.length,
      elementsDeleted: deletes.length,
      chainsDeleted: deleted,
      elementCounts: this.#elementCounts(),
      noLocalEndpointsInternal: noLocalInternal,
      noLocalEndpointsExternal: noLocalExternal,
      lastChangeTriggerTimes: endpoints.lastChangeTriggerTimes,
    });
  }

  /** The runner reports that `result` was applied: adopt the stale-object bookkeeping. */
  commit(result: NftablesSyncResult): void {
    if (this.#pendingStale !== undefined) this.#stale = this.#pendingStale;
    this.#pendingStale = undefined;
    this.markSynced(result.full);
  }

  /** The chains and affinity sets `r` uses (its inputs rendered again: names depend on nothing else). */
  #namesOf(r: RenderedService): Set<string> {
    return namesOf(this.#objects(r.svc, r.eps, r.topo));
  }

  #objects(svc: ServicePortInfo, eps: readonly Endpoint[], topology: TopologyContext): ServiceObjects {
    const proto = svc.protocol.toLowerCase();
    return serviceObjects(
      {
        ip: this.#fam.ip,
        addrType: this.#fam.addrType,
        localDetector: this.#localDetector,
        masqueradeAll: this.#opts.masqueradeAll ?? false,
        nodeIPs: this.#opts.nodeIPs ?? [],
        cidrContains: containsIP,
        base: nftServiceChainBase(svc.name.namespace, svc.name.name, proto, svc.name.port),
        endpointBase: (ep) =>
          (ep.memo.nftablesBase ??= nftEndpointChainBase(svc.name.namespace, svc.name.name, proto, svc.name.port, ep.ip, ep.port)),
        topology,
      },
      svc,
      eps,
    );
  }

  /** Renders one service port; `objs` (chains with their rules) is only kept for this sync's partial write. */
  #renderService(svc: ServicePortInfo, eps: readonly Endpoint[]): { rendered: RenderedService; objs: ServiceObjects } {
    const objs = this.#objects(svc, eps, this.topology);
    const t = this.#prefix;
    const decl: string[] = [];
    for (const set of objs.affinitySets) decl.push(`add set ${t} ${set.name} ${set.def}`);
    for (const c of objs.chainOrder) decl.push(`add chain ${t} ${c}`);
    for (const c of objs.chains) for (const rule of c.rules) decl.push(`add rule ${t} ${c.name} ${rule}`);
    const elementsText = objs.elements.map((e) => addElementLine(t, e)).join("\n");
    const rendered: RenderedService = {
      svc,
      eps,
      topo: this.topology,
      elements: objs.elements,
      chainCount: objs.chains.length,
      noLocalInternal: objs.noLocalInternal,
      noLocalExternal: objs.noLocalExternal,
      fullText: decl.join("\n"),
      elementsText,
    };
    return { rendered, objs };
  }

  /** Partial sync: declares and refills one service's sets and chains, flushing those that exist. */
  #writeService(tx: string[], objs: ServiceObjects, previous: ReadonlySet<string> | undefined): number {
    const t = this.#prefix;
    for (const s of objs.affinitySets) tx.push(`add set ${t} ${s.name} ${s.def}`);
    for (const c of objs.chainOrder) {
      tx.push(`add chain ${t} ${c}`);
      if (previous?.has(c) === true || this.#stale.has(c)) tx.push(`flush chain ${t} ${c}`);
    }
    for (const c of objs.chains) for (const rule of c.rules) tx.push(`add rule ${t} ${c.name} ${rule}`);
    return objs.chains.length;
  }

  /**
   * Unused chains are flushed at once (a table flush did that already on a full
   * sync) and deleted only after the delay; returns the number deleted.
   */
  #staleObjects(tx: string[], unused: Set<string>, used: Set<string>, full: boolean): number {
    const now = this.clock();
    const delay = this.#opts.staleChainDelayMs ?? 1000;
    const next = new Map(this.#stale);
    for (const n of used) next.delete(n);
    let deleted = 0;
    for (const [n, since] of next) {
      if (now - since < delay) continue;
      tx.push(`delete ${isAffinitySet(n) ? "set" : "chain"} ${this.#prefix} ${n}`);
      next.delete(n);
      deleted++;
    }
    for (const n of unused) {
      if (used.has(n) || next.has(n)) continue;
      if (!full && !isAffinitySet(n)) tx.push(`flush chain ${this.#prefix} ${n}`);
      next.set(n, now);
    }
    this.#pendingStale = next;
    return deleted;
  }

  #elementCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.#rendered.values()) for (const e of r.elements) counts.set(e.set, (counts.get(e.set) ?? 0) + 1);
    return counts;
  }
}

/** Per-service chains and affinity sets of `objs`; affinity sets are the names starting "affinity-". */
function namesOf(objs: ServiceObjects): Set<string> {
  const names = new Set<string>();
  for (const s of objs.affinitySets) names.add(s.name);
  for (const c of objs.chainOrder) names.add(c);
  return names;
}

/** Per-service objects are chains except the ClientIP affinity sets. */
function isAffinitySet(name: string): boolean {
  return name.startsWith("affinity-");
}
