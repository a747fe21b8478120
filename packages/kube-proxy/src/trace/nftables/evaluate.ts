/**
 * Evaluates the kube-proxy nftables table for one new connection: the base
 * chains of each hook in priority order (filter-prerouting-pre-dnat at -110
 * before nat-prerouting at -100, …), verdict maps and sets looked up by the
 * packet's concatenated fields, and every `numgen random mod N` value followed
 * with probability 1/N (upstream's nftablesTracer.runChain in
 * pkg/proxy/nftables/helpers_test.go jumps to all of them too).
 */
import { addressMatcher, canonicalIP, LocalAddresses, splitHostPort } from "../addresses.ts";
import type { AddressMatcher } from "../addresses.ts";
import { applyDNAT, fork, walk } from "../walk.ts";
import type { PathState } from "../walk.ts";
import type { Hook, TraceNode, TracePacket, TraceResult, TraceStep } from "../types.ts";
import type { NftOp, NftRule, Selector } from "./rule.ts";
import type { NftablesRuleset, NftElement, NftSet, NftTable } from "./ruleset.ts";

type Flow = "next" | "accept" | "stop";
type Result = [PathState, Flow];
/** What one rule did: "nomatch", "next" (matched, no verdict) or a verdict ("jump x", "drop", …). */
type RuleResult = [PathState, string];

interface Ctx {
  readonly table: NftTable;
  readonly packet: TracePacket;
  readonly local: LocalAddresses;
  readonly hook: Hook;
}

const maxDepth = 64;

/** Traces `packet` through every table of `rules` on a node with `node.localIPs`. */
export function traceNftables(rules: NftablesRuleset, packet: TracePacket, node: TraceNode): TraceResult {
  const local = new LocalAddresses(node.localIPs);
  const outcomes = walk(packet, local, (hook, state) => {
    const bases = rules.baseChains(hook);
    // Every base chain of the hook sees the packet unless one drops it; accept ends only its own chain.
    let live = [state];
    const stopped: PathState[] = [];
    for (const [table, chain] of bases) {
      const next: PathState[] = [];
      for (const s of live)
        for (const [st, flow] of runChain({ table, packet, local, hook }, chain.name, s, 0)) (flow === "stop" ? stopped : next).push(st);
      live = next;
    }
    return [...stopped, ...live];
  });
  return { packet, outcomes };
}

function runChain(ctx: Ctx, name: string, s: PathState, depth: number): Result[] {
  if (!ctx.table.chains.has(name)) throw new Error(`jump to missing chain ${name}`);
  if (depth > maxDepth) throw new Error(`chain nesting deeper than ${maxDepth} at ${name}`);
  return runFrom(ctx, name, 0, s, depth);
}

function runFrom(ctx: Ctx, name: string, start: number, s: PathState, depth: number): Result[] {
  const chain = ctx.table.chains.get(name);
  const n = chain?.lines.length ?? 0;
  for (let i = start; i < n && chain !== undefined; i++) {
    const results = evalRule(ctx, name, chain.rule(i), s);
    const only = results.length === 1 ? results[0] : undefined;
    if (only !== undefined && only[0] === s && (only[1] === "nomatch" || only[1] === "next")) continue;
    const out: Result[] = [];
    for (const [st, v] of results) out.push(...verdict(ctx, name, i, st, v, depth));
    return out;
  }
  return [[s, "next"]];
}

function verdict(ctx: Ctx, name: string, i: number, s: PathState, v: string, depth: number): Result[] {
  if (v === "nomatch" || v === "next" || v === "continue") return runFrom(ctx, name, i + 1, s, depth);
  if (v === "return") return [[s, "next"]];
  if (v === "accept") return [[s, "accept"]];
  if (v === "drop" || v === "reject") {
    s.verdict = v;
    return [[s, "stop"]];
  }
  const [kind, target = ""] = v.split(" ");
  if (kind !== "jump" && kind !== "goto") throw new Error(`unsupported verdict ${v}`);
  const out: Result[] = [];
  for (const [st, flow] of runChain(ctx, target, s, depth + 1)) {
    if (flow === "next" && kind === "jump") out.push(...runFrom(ctx, name, i + 1, st, depth));
    else out.push([st, flow]);
  }
  return out;
}

/** Runs the operations of one rule; forks at `numgen`. */
function evalRule(ctx: Ctx, chain: string, rule: NftRule, s: PathState): RuleResult[] {
  const actions: string[] = [];
  const record = (st: PathState, action: string, extra: Partial<TraceStep> = {}) =>
    st.steps.push({
      hook: ctx.hook,
      table: `${ctx.table.family} ${ctx.table.name}`,
      chain,
      rule: rule.raw,
      ...(rule.comment !== undefined ? { comment: rule.comment } : {}),
      action,
      ...extra,
    });
  const ops = rule.ops;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as NftOp;
    switch (op.op) {
      case "cmp":
        if (cmp(ctx, s, op) === op.negated) return [[s, "nomatch"]];
        break;
      case "lookup":
        if ((findElement(ctx, s, set(ctx, op.set), op.sels) !== undefined) === op.negated) return [[s, "nomatch"]];
        break;
      case "fib":
        if (ctx.local.has(op.sel === "daddr" ? s.dst : ctx.packet.source) === op.negated) return [[s, "nomatch"]];
        break;
      case "ctstate":
        // The first packet of a new connection.
        if (op.states.includes("new") === op.negated) return [[s, "nomatch"]];
        break;
      case "markcmp":
        if (((s.mark & op.mask) === op.value) === op.negated) return [[s, "nomatch"]];
        break;
      case "markset":
        s.mark = op.how === "or" ? s.mark | op.value : s.mark ^ op.value;
        actions.push(`mark ${op.how} 0x${op.value.toString(16)}`);
        break;
      case "update":
        s.affinity.push(`@${op.set}`);
        actions.push(`update @${op.set}`);
        break;
      case "dnat": {
        const { ip, port } = splitHostPort(op.to);
        applyDNAT(s, ip, port);
        record(s, [...actions, `dnat to ${s.dnat ?? ""}`].join(", "));
        return [[s, "accept"]];
      }
      case "masquerade":
        s.masquerade = true;
        record(s, [...actions, "masquerade"].join(", "));
        return [[s, "accept"]];
      case "vmap": {
        const e = findElement(ctx, s, set(ctx, op.map), op.sels);
        if (e === undefined) return [[s, "nomatch"]];
        const v = e.value ?? "";
        if (e.comment !== undefined) s.reason = `${op.map}: ${e.comment}`;
        record(s, [...actions, `@${op.map} → ${v}`].join(", "), e.comment !== undefined ? { comment: e.comment } : {});
        return [[s, withReason(s, rule, v)]];
      }
      case "numgen": {
        const out: RuleResult[] = [];
        for (let n = 0; n < op.mod; n++) {
          const st = fork(s, 1 / op.mod);
          const v = op.entries.get(n);
          record(st, [...actions, `numgen ${n} → ${v ?? "no entry"}`].join(", "), { branchProbability: 1 / op.mod });
          out.push([st, v ?? "nomatch"]);
        }
        return out;
      }
      case "verdict":
        record(s, [...actions, op.verdict].join(", "));
        return [[s, withReason(s, rule, op.verdict)]];
    }
  }
  if (actions.length > 0 || ops.length > 0) record(s, actions.join(", ") || "match");
  return [[s, "next"]];
}

function withReason(s: PathState, rule: NftRule, v: string): string {
  if ((v === "drop" || v === "reject") && rule.comment !== undefined) s.reason = rule.comment;
  return v;
}

function set(ctx: Ctx, name: string): NftSet {
  const found = ctx.table.sets.get(name);
  if (found === undefined) throw new Error(`lookup in missing set ${name}`);
  return found;
}

function field(ctx: Ctx, s: PathState, sel: Selector): string {
  switch (sel) {
    case "daddr":
      return s.dst;
    case "saddr":
      return ctx.packet.source;
    case "l4proto":
      return ctx.packet.protocol;
    case "dport":
      return String(s.dport);
  }
}

const isAddr = (sel: Selector) => sel === "daddr" || sel === "saddr";

const matcherCache = new WeakMap<object, AddressMatcher[]>();

function cmp(ctx: Ctx, s: PathState, op: Extract<NftOp, { op: "cmp" }>): boolean {
  const v = field(ctx, s, op.sel);
  if (!isAddr(op.sel)) return op.values.includes(v);
  let ms = matcherCache.get(op);
  if (ms === undefined) {
    ms = op.values.map(addressMatcher);
    matcherCache.set(op, ms);
  }
  return ms.some((m) => m(v));
}

/** The element whose key matches the packet's fields (exact first, then CIDR parts). */
function findElement(ctx: Ctx, s: PathState, st: NftSet, sels: readonly Selector[]): NftElement | undefined {
  const parts = sels.map((sel) => (isAddr(sel) ? canonicalIP(field(ctx, s, sel)) : field(ctx, s, sel)));
  const hit = st.elements.get(parts.join(" . "));
  if (hit !== undefined || !st.hasIntervals) return hit;
  for (const e of st.elements.values()) {
    if (e.key.length === parts.length && e.key.every((k, i) => (k.includes("/") ? addressMatcher(k)(parts[i] ?? "") : k === parts[i])))
      return e;
  }
  return undefined;
}
