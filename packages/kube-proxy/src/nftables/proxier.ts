/**
 * The nftables proxier for one IP family: one `nft -f` transaction per sync on
 * table `ip kube-proxy` / `ip6 kube-proxy`. A full sync flushes and rebuilds
 * the table; a partial sync rewrites only the chains of changed Services and
 * adds/deletes only the map elements that changed.
 */
import { cidrContains, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import { BaseProxier } from "../proxy/base-proxier.ts";
import type { BaseProxierOptions } from "../proxy/base-proxier.ts";
import type { Endpoint } from "../proxy/endpoint.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import { namespacedNameString } from "../proxy/service-port-name.ts";
import { baseRules } from "./base-rules.ts";
import { ElementStorage } from "./element-storage.ts";
import type { Element } from "./element-storage.ts";
import { kubeProxyTable, nftEndpointChainBase, nftFamily, nftServiceChainBase } from "./names.ts";
import { serviceObjects } from "./service-rules.ts";

export interface NftablesProxierOptions extends BaseProxierOptions {
  readonly clusterCIDR?: string;
  readonly masqueradeAll?: boolean;
  readonly masqueradeBit?: number;
  /** Node IPs of this family that accept NodePorts (`nodeport-ips`); empty: all local addresses. */
  readonly nodeIPs?: readonly string[];
  /** Service CIDRs known at start; later ones come from onServiceCIDRsChanged. */
  readonly serviceCIDRs?: readonly string[];
  /** Stale chains are flushed at once but deleted this much later (kernels < 6.2 keep references briefly). */
  readonly staleChainDelayMs?: number;
}

export interface NftablesSyncResult {
  readonly family: BaseProxierOptions["ipFamily"];
  readonly full: boolean;
  /** The `nft -f -` input. */
  readonly data: string;
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

interface PendingState {
  readonly result: NftablesSyncResult;
  readonly objects: Set<string>;
  readonly stale: Map<string, number>;
  readonly elements: Map<string, Map<string, string>>;
}

export class NftablesProxier extends BaseProxier {
  readonly #opts: NftablesProxierOptions;
  readonly #mark: string;
  readonly #fam: ReturnType<typeof nftFamily>;
  readonly #prefix: string;
  readonly #elements = new ElementStorage();
  /** Per-service chains ("chain X") and affinity sets ("set X") that exist in the kernel. */
  #objects = new Set<string>();
  /** Objects no longer used: when they became stale. */
  #stale = new Map<string, number>();
  #pending: PendingState | undefined;
  readonly #serviceBases = new WeakMap<ServicePortInfo, string>();
  readonly #endpointBases = new WeakMap<Endpoint, string>();

  constructor(opts: NftablesProxierOptions) {
    super(opts);
    this.#opts = opts;
    this.#mark = `0x${(1 << (opts.masqueradeBit ?? 14)).toString(16)}`;
    this.#fam = nftFamily(opts.ipFamily);
    this.#prefix = `${this.#fam.table} ${kubeProxyTable}`;
    this.serviceCIDRs = [...(opts.serviceCIDRs ?? [])];
    this.serviceCIDRsInBaseRules = true;
  }

  /** Renders the transaction, or null while not initialized. */
  syncProxyRules(): NftablesSyncResult | null {
    if (!this.isInitialized()) return null;
    const { full, services, endpoints } = this.takeChanges();
    const changed = new Set([...services.updatedServices, ...endpoints.updatedServices]);
    const t = this.#prefix;
    const tx: string[] = [`add table ${t} { comment "rules for kube-proxy" ; }`];
    if (full) {
      tx.push(`flush table ${t}`);
      tx.push(...baseRules({ family: this.ipFamily, mark: this.#mark, serviceCIDRs: this.serviceCIDRs, nodePortIPs: this.#opts.nodeIPs ?? [] }));
    }
    const active = new Set<string>();
    const elements: Element[] = [];
    let chainsWritten = 0;
    let noLocalInternal = 0;
    let noLocalExternal = 0;
    const ctx = {
      ip: this.#fam.ip,
      addrType: this.#fam.addrType,
      clusterCIDR: this.#opts.clusterCIDR ?? "",
      masqueradeAll: this.#opts.masqueradeAll ?? false,
      nodeIPs: this.#opts.nodeIPs ?? [],
      cidrContains: containsIP,
    };
    for (const [key, svc] of this.svcPortMap) {
      const objs = serviceObjects(
        { ...ctx, base: this.#baseOf(svc), endpointBase: (ep) => this.#endpointBaseOf(svc, ep) },
        svc,
        this.endpointsMap.get(key) ?? [],
      );
      elements.push(...objs.elements);
      for (const s of objs.affinitySets) active.add(`set ${s.name}`);
      for (const c of objs.chainOrder) active.add(`chain ${c}`);
      if (objs.noLocalInternal) noLocalInternal++;
      if (objs.noLocalExternal) noLocalExternal++;
      if (!full && !changed.has(namespacedNameString(svc.name))) continue;
      for (const s of objs.affinitySets) tx.push(`add set ${t} ${s.name} ${s.def}`);
      for (const c of objs.chainOrder) {
        tx.push(`add chain ${t} ${c}`);
        if (!full && this.#objects.has(`chain ${c}`)) tx.push(`flush chain ${t} ${c}`);
      }
      for (const c of objs.chains) for (const r of c.rules) tx.push(`add rule ${t} ${c.name} ${r}`);
      chainsWritten += objs.chains.length;
    }
    const diff = this.#elements.diff(t, elements, full);
    tx.push(...diff.deletes, ...diff.adds);
    const { lines: staleLines, stale, objects, deleted } = this.#staleObjects(active, full);
    tx.push(...staleLines);
    const counts = new Map<string, number>();
    for (const [set, m] of diff.next) counts.set(set, m.size);
    const result: NftablesSyncResult = {
      family: this.ipFamily,
      full,
      data: tx.join("\n") + "\n",
      chainsWritten,
      elementsAdded: diff.adds.length,
      elementsDeleted: diff.deletes.length,
      chainsDeleted: deleted,
      elementCounts: counts,
      noLocalEndpointsInternal: noLocalInternal,
      noLocalEndpointsExternal: noLocalExternal,
      lastChangeTriggerTimes: endpoints.lastChangeTriggerTimes,
    };
    this.#pending = { result, objects, stale, elements: diff.next };
    return result;
  }

  /** The runner reports that `result` was applied: adopt its state. */
  commit(result: NftablesSyncResult): void {
    const p = this.#pending;
    if (p === undefined || p.result !== result) return;
    this.#objects = p.objects;
    this.#stale = p.stale;
    this.#elements.commit(p.elements);
    this.#pending = undefined;
    this.markSynced(result.full);
  }

  /** Flushes newly stale chains now and deletes those stale for long enough. */
  #staleObjects(active: Set<string>, full: boolean) {
    const now = this.clock();
    const delay = this.#opts.staleChainDelayMs ?? 1000;
    const stale = new Map<string, number>();
    const objects = new Set(active);
    const lines: string[] = [];
    let deleted = 0;
    for (const obj of this.#objects) {
      if (active.has(obj)) continue;
      const since = this.#stale.get(obj);
      if (since !== undefined && now - since >= delay) {
        lines.push(`delete ${obj.startsWith("chain ") ? "chain" : "set"} ${this.#prefix} ${obj.slice(obj.indexOf(" ") + 1)}`);
        deleted++;
        continue;
      }
      // A table flush already emptied it; otherwise flush so nothing jumps through it any more.
      if (since === undefined && !full && obj.startsWith("chain ")) lines.push(`flush chain ${this.#prefix} ${obj.slice(6)}`);
      stale.set(obj, since ?? now);
      objects.add(obj);
    }
    return { lines, stale, objects, deleted };
  }

  #baseOf(svc: ServicePortInfo): string {
    let b = this.#serviceBases.get(svc);
    if (b === undefined) {
      b = nftServiceChainBase(svc.name.namespace, svc.name.name, svc.protocol.toLowerCase(), svc.name.port);
      this.#serviceBases.set(svc, b);
    }
    return b;
  }

  #endpointBaseOf(svc: ServicePortInfo, ep: Endpoint): string {
    let b = this.#endpointBases.get(ep);
    if (b === undefined) {
      b = nftEndpointChainBase(svc.name.namespace, svc.name.name, svc.protocol.toLowerCase(), svc.name.port, ep.ip, ep.port);
      this.#endpointBases.set(ep, b);
    }
    return b;
  }
}

function containsIP(cidr: string, ip: string): boolean {
  const c = parseCIDRSloppy(cidr);
  const a = parseIPSloppy(ip);
  return c !== null && a !== null && cidrContains(c, a);
}
