/**
 * The packet tracer's model: a new connection walked through the netfilter
 * hooks, every random branch enumerated (as upstream's tracePacket in
 * pkg/proxy/iptables/proxier_test.go and pkg/proxy/nftables/helpers_test.go
 * follows every endpoint), each path ending in one outcome with its probability.
 */

/** Where the packet enters: from a pod or an outside client (PREROUTING), or from the node itself (OUTPUT). */
export type TraceOrigin = "prerouting" | "output";

/** The netfilter hooks a packet may pass. */
export type Hook = "prerouting" | "input" | "forward" | "output" | "postrouting";

/** Layer-4 protocol as rules spell it. */
export type TraceProtocol = "tcp" | "udp" | "sctp";

/** The first packet of a new connection. */
export interface TracePacket {
  readonly source: string;
  readonly destination: string;
  readonly protocol: TraceProtocol;
  readonly port: number;
  readonly origin: TraceOrigin;
}

/** What the walk knows about the node: its addresses (fib/addrtype `local`); loopback is always local. */
export interface TraceNode {
  readonly localIPs: readonly string[];
}

/** One rule that matched (or the base chain a hook ran). */
export interface TraceStep {
  readonly hook: Hook;
  /** "nat"/"filter" for iptables, the table ("ip kube-proxy") for nftables. */
  readonly table: string;
  readonly chain: string;
  /** The rule as written (without `-A CHAIN` / `add rule T C`). */
  readonly rule: string;
  /** The rule's comment, or the comment of the map element that decided. */
  readonly comment?: string;
  /** What the rule did: "jump KUBE-SVC-…", "DNAT to 10.0.0.1:80", "mark 0x4000", "DROP". */
  readonly action: string;
  /** For a random branch: the probability of the branch taken here. */
  readonly branchProbability?: number;
}

/** How the walk ended. */
export type TraceVerdict = "accept" | "drop" | "reject";

/** One possible end of the connection. */
export interface TraceOutcome {
  readonly probability: number;
  readonly verdict: TraceVerdict;
  /** The destination after DNAT, "ip:port" (IPv6 in brackets), when a rule rewrote it. */
  readonly dnat?: string;
  /** The source is masqueraded (rewritten to the node's address on the way out). */
  readonly masquerade: boolean;
  /** A filter rule accepted the packet explicitly (not only the chain policy). */
  readonly acceptedByRule: boolean;
  /** The comment of the rule (or element) that dropped or rejected the packet. */
  readonly reason?: string;
  /** Session-affinity entries this connection records (`recent --set`, `update @affinity-…`). */
  readonly affinity: readonly string[];
  readonly steps: readonly TraceStep[];
}

/** The trace of one packet. */
export interface TraceResult {
  readonly packet: TracePacket;
  readonly outcomes: readonly TraceOutcome[];
}

/** The summary upstream's runPacketFlowTests compares: endpoints joined by ", ", or DROP/REJECT/ACCEPT, or "". */
export function flowOutput(outcomes: readonly TraceOutcome[]): string {
  const out: string[] = [];
  for (const o of outcomes) {
    const s = o.verdict === "accept" ? (o.dnat ?? (o.acceptedByRule ? "ACCEPT" : "")) : o.verdict.toUpperCase();
    if (s !== "" && !out.includes(s)) out.push(s);
  }
  return out.join(", ");
}

/** True if any path masquerades (upstream's `masq`). */
export function flowMasquerade(outcomes: readonly TraceOutcome[]): boolean {
  return outcomes.some((o) => o.masquerade);
}
