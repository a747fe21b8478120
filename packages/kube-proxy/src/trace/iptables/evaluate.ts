/**
 * Evaluates kube-proxy's iptables rules for one new connection, following
 * every `-m statistic --mode random` branch instead of sampling one (as
 * upstream's iptablesTracer.runChain in pkg/proxy/iptables/proxier_test.go
 * follows every endpoint), and, unlike that tracer, running the built-in
 * chains of the hooks the packet really passes and the mark/MASQUERADE rules of
 * nat POSTROUTING instead of assuming them.
 */
import { LocalAddresses, splitHostPort } from "../addresses.ts";
import { applyDNAT, fork, walk } from "../walk.ts";
import type { PathState } from "../walk.ts";
import type { Hook, TraceNode, TracePacket, TraceResult } from "../types.ts";
import type { IptablesRule } from "./rule.ts";
import type { IptablesRuleset, IptablesTable } from "./ruleset.ts";

/** The built-in chains each hook runs, in priority order (filter before nat on INPUT). */
const hookChains: Record<Hook, readonly [IptablesTable, string][]> = {
  prerouting: [["nat", "PREROUTING"]],
  input: [
    ["filter", "INPUT"],
    ["nat", "INPUT"],
  ],
  forward: [["filter", "FORWARD"]],
  output: [
    ["nat", "OUTPUT"],
    ["filter", "OUTPUT"],
  ],
  postrouting: [["nat", "POSTROUTING"]],
};

/** How a chain left a path: fall through to the caller, or a verdict for the whole base chain. */
type Flow = "next" | "accept" | "stop";
type Result = [PathState, Flow];

interface Ctx {
  readonly rules: IptablesRuleset;
  readonly packet: TracePacket;
  readonly local: LocalAddresses;
  readonly hook: Hook;
  readonly table: IptablesTable;
}

const maxDepth = 64;

/** Traces `packet` through `rules` on a node with `node.localIPs`. */
export function traceIptables(rules: IptablesRuleset, packet: TracePacket, node: TraceNode): TraceResult {
  const local = new LocalAddresses(node.localIPs);
  const outcomes = walk(packet, local, (hook, state) => {
    // Base chains end in policy ACCEPT: a path goes on unless DROP/REJECT stopped it.
    let live = [state];
    const stopped: PathState[] = [];
    for (const [table, chain] of hookChains[hook]) {
      const next: PathState[] = [];
      for (const s of live) {
        for (const [st, flow] of runChain({ rules, packet, local, hook, table }, chain, s, 0)) (flow === "stop" ? stopped : next).push(st);
      }
      live = next;
    }
    return [...stopped, ...live];
  });
  return { packet, outcomes };
}

function runChain(ctx: Ctx, name: string, s: PathState, depth: number): Result[] {
  const chain = ctx.rules.chain(ctx.table, name);
  if (chain === undefined) throw new Error(`jump to missing chain ${ctx.table}/${name}`);
  if (depth > maxDepth) throw new Error(`chain nesting deeper than ${maxDepth} at ${name}`);
  return runFrom(ctx, name, 0, s, depth);
}

function runFrom(ctx: Ctx, name: string, start: number, s: PathState, depth: number): Result[] {
  const chain = ctx.rules.chain(ctx.table, name);
  if (chain === undefined) return [[s, "next"]];
  const candidates = chain.candidates(s.dst);
  const n = candidates?.length ?? chain.lines.length;
  for (let k = 0; k < n; k++) {
    const i = candidates === undefined ? k : (candidates[k] ?? 0);
    if (i < start) continue;
    const rule = chain.rule(i);
    if (!matches(ctx, rule, s)) continue;
    const p = rule.probability;
    if (p !== undefined && p < 1) {
      const taken = fork(s, p);
      const skipped = fork(s, 1 - p);
      skipped.steps.push(step(ctx, name, rule, "random: not taken", 1 - p));
      return [...apply(ctx, name, i, rule, taken, depth, p), ...runFrom(ctx, name, i + 1, skipped, depth)];
    }
    return apply(ctx, name, i, rule, s, depth, undefined);
  }
  return [[s, "next"]];
}

/** Applies the target of a matched rule at index `i`, then continues the chain where the target allows. */
function apply(ctx: Ctx, name: string, i: number, rule: IptablesRule, s: PathState, depth: number, p: number | undefined): Result[] {
  const t = rule.target;
  const record = (action: string) => s.steps.push(step(ctx, name, rule, action, p));
  const cont = (): Result[] => runFrom(ctx, name, i + 1, s, depth);
  if (rule.recent?.op === "set") s.affinity.push(`recent ${rule.recent.name}`);
  switch (t) {
    case undefined:
      record("count (no target)");
      return cont();
    case "ACCEPT":
      record("ACCEPT");
      if (ctx.table === "filter") s.acceptedByRule = true;
      return [[s, "accept"]];
    case "DROP":
    case "REJECT":
      record(t);
      s.verdict = t === "DROP" ? "drop" : "reject";
      s.reason = rule.comment ?? `${ctx.table}/${name}: ${rule.raw}`;
      return [[s, "stop"]];
    case "RETURN":
      record("RETURN");
      return [[s, "next"]];
    case "DNAT": {
      const { ip, port } = splitHostPort(rule.toDestination ?? "");
      applyDNAT(s, ip, port);
      record(`DNAT to ${s.dnat ?? ""}`);
      return [[s, "accept"]];
    }
    case "MASQUERADE":
      record("MASQUERADE");
      s.masquerade = true;
      return [[s, "accept"]];
    case "MARK":
      if (rule.orMark !== undefined) s.mark |= rule.orMark;
      if (rule.xorMark !== undefined) s.mark ^= rule.xorMark;
      record(`MARK ${rule.orMark !== undefined ? `or 0x${rule.orMark.toString(16)}` : `xor 0x${(rule.xorMark ?? 0).toString(16)}`}`);
      return cont();
    default: {
      record(`${rule.goto ? "goto" : "jump"} ${t}`);
      const out: Result[] = [];
      for (const [st, flow] of runChain(ctx, t, s, depth + 1)) {
        if (flow !== "next" || rule.goto) out.push([st, flow]);
        else out.push(...runFrom(ctx, name, i + 1, st, depth));
      }
      return out;
    }
  }
}

function matches(ctx: Ctx, r: IptablesRule, s: PathState): boolean {
  const pkt = ctx.packet;
  if (r.protocol !== undefined && (r.protocol.value === pkt.protocol) === r.protocol.negated) return false;
  if (r.source !== undefined && r.source.value(pkt.source) === r.source.negated) return false;
  if (r.destination !== undefined && r.destination.value(s.dst) === r.destination.negated) return false;
  if (r.destinationPort !== undefined && (r.destinationPort.value === s.dport) === r.destinationPort.negated) return false;
  if (r.sourceType !== undefined && addrType(ctx, pkt.source, r.sourceType.value) === r.sourceType.negated) return false;
  if (r.destinationType !== undefined && addrType(ctx, s.dst, r.destinationType.value) === r.destinationType.negated) return false;
  if (r.ctState !== undefined) {
    // The first packet of a new connection: NEW, plus DNAT once nat has rewritten its destination.
    const hit = r.ctState.value.some((st) => st === "NEW" || (st === "DNAT" && s.dnat !== undefined));
    if (hit === r.ctState.negated) return false;
  }
  if (r.mark !== undefined && ((s.mark & r.mark.value.mask) === (r.mark.value.value & r.mark.value.mask)) === r.mark.negated) return false;
  // No affinity entry exists for the first connection from a client (upstream's tracer: AffinityCheck never matches).
  if (r.recent?.op === "rcheck") return false;
  return true;
}

function addrType(ctx: Ctx, ip: string, type: string): boolean {
  if (type !== "LOCAL") throw new Error(`addrtype ${type} is not supported`);
  return ctx.local.has(ip);
}

function step(ctx: Ctx, chain: string, rule: IptablesRule, action: string, p: number | undefined) {
  return {
    hook: ctx.hook,
    table: ctx.table,
    chain,
    rule: rule.raw,
    ...(rule.comment !== undefined ? { comment: rule.comment } : {}),
    action,
    ...(p !== undefined ? { branchProbability: p } : {}),
  };
}
