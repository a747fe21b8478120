/**
 * The conntrack table as the reconciler sees it (pkg/proxy/conntrack/conntrack.go `Interface`):
 * list one family's flows, delete flows matching filters. Flows are what
 * `conntrack -L -o extended` prints: the original tuple (client to Service) and the reply tuple
 * (endpoint back to the client, so its source is the DNAT target).
 */
import type { IPFamily } from "@servicenet/api";

/** One conntrack flow, the fields the reconciler matches on. */
export interface ConntrackFlow {
  /** Lower-case protocol name (`udp`, `tcp`, `sctp`). */
  readonly protocol: string;
  readonly origDst: string;
  readonly origPortDst: number;
  readonly replySrc: string;
  readonly replyPortSrc: number;
}

/**
 * What to delete (`conntrackFilter`): flows of `protocol` whose reply source is `replySrc:replyPortSrc`
 * and whose original destination is `origDst:origPortDst` (`filterForIPPortNAT`) or, without
 * `origDst`, any address on port `origPortDst` (`filterForPortNAT`, a NodePort).
 */
export interface ConntrackFilter {
  readonly protocol: string;
  readonly origDst?: string;
  readonly origPortDst: number;
  readonly replySrc: string;
  readonly replyPortSrc: number;
}

/** The kernel's conntrack table (or a stand-in). */
export interface Conntrack {
  listEntries(family: IPFamily): Promise<ConntrackFlow[]>;
  /** Deletes the flows matching any filter; resolves with how many were deleted. */
  clearEntries(family: IPFamily, filters: readonly ConntrackFilter[]): Promise<number>;
  /** Told after each reconcile what was enforced (the dry-run table writes it down). */
  reconciled?(family: IPFamily, frontends: ReadonlyMap<string, ReadonlySet<string>>): Promise<void>;
}

/** Whether `flow` matches `filter` (conntrackFilter.Match). */
export function filterMatches(filter: ConntrackFilter, flow: ConntrackFlow): boolean {
  return (
    flow.protocol === filter.protocol &&
    flow.origPortDst === filter.origPortDst &&
    (filter.origDst === undefined || flow.origDst === filter.origDst) &&
    flow.replySrc === filter.replySrc &&
    flow.replyPortSrc === filter.replyPortSrc
  );
}

/** A conntrack table in memory (upstream's fake handler), for tests and the dry-run. */
export class FakeConntrack implements Conntrack {
  entries: ConntrackFlow[];
  constructor(entries: ConntrackFlow[] = []) {
    this.entries = entries;
  }
  async listEntries(): Promise<ConntrackFlow[]> {
    return [...this.entries];
  }
  async clearEntries(_family: IPFamily, filters: readonly ConntrackFilter[]): Promise<number> {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !filters.some((f) => filterMatches(f, e)));
    return before - this.entries.length;
  }
}
