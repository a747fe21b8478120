/**
 * One nftables rule of the subset kube-proxy writes (pkg/proxy/nftables/proxier.go),
 * parsed into a sequence of operations: matches, lookups in sets and verdict
 * maps, `numgen random` dispatch, mark, DNAT, masquerade and verdicts. Upstream's
 * nftablesTracer (pkg/proxy/nftables/helpers_test.go) recognises the same
 * pieces by regexps; this parses them once and evaluates them per packet.
 */
import { nftWords, braceItems } from "./tokenize.ts";

/** A packet field a rule reads. */
export type Selector = "daddr" | "saddr" | "l4proto" | "dport";

export type NftOp =
  /** `ip daddr 10.0.0.1`, `ip saddr != { a, b }`, `tcp dport 80`, `meta l4proto tcp`. */
  | { readonly op: "cmp"; readonly sel: Selector; readonly negated: boolean; readonly values: readonly string[] }
  /** `ip daddr @set`, `ip daddr . meta l4proto . th dport @set` (with `!=`: not in it). */
  | { readonly op: "lookup"; readonly sels: readonly Selector[]; readonly set: string; readonly negated: boolean }
  /** `… vmap @map` or an inline `vmap { k : verdict }`. */
  | { readonly op: "vmap"; readonly sels: readonly Selector[]; readonly map: string }
  | { readonly op: "fib"; readonly sel: "daddr" | "saddr"; readonly negated: boolean }
  | { readonly op: "ctstate"; readonly negated: boolean; readonly states: readonly string[] }
  | { readonly op: "markcmp"; readonly mask: number; readonly value: number; readonly negated: boolean }
  | { readonly op: "markset"; readonly how: "or" | "xor"; readonly value: number }
  /** `numgen random mod N vmap { 0 : goto a , 1 : goto b }`. */
  | { readonly op: "numgen"; readonly mod: number; readonly entries: ReadonlyMap<number, string> }
  | { readonly op: "update"; readonly set: string }
  | { readonly op: "dnat"; readonly to: string }
  | { readonly op: "masquerade" }
  /** `jump x`, `goto x`, `return`, `accept`, `drop`, `reject`. */
  | { readonly op: "verdict"; readonly verdict: string };

export interface NftRule {
  readonly raw: string;
  readonly comment?: string;
  readonly ops: readonly NftOp[];
}

const l4protos = new Set(["tcp", "udp", "sctp"]);

/**
 * Parses the text after `add rule FAMILY TABLE CHAIN`.
 * @throws Error naming the word it does not know.
 */
export function parseNftRule(raw: string): NftRule {
  const w = nftWords(raw);
  const ops: NftOp[] = [];
  let comment: string | undefined;
  let i = 0;
  const word = (k: number) => w[k] ?? "";
  const fail = (): never => {
    throw new Error(`unsupported nftables expression at ${JSON.stringify(w.slice(i).join(" "))} in ${JSON.stringify(raw)}`);
  };
  // A selector at i, or undefined: "ip daddr", "ip6 saddr", "meta l4proto", "th dport", "tcp dport".
  const selectorAt = (k: number): [Selector, number] | undefined => {
    const [a, b] = [word(k), word(k + 1)];
    if ((a === "ip" || a === "ip6") && (b === "daddr" || b === "saddr")) return [b, 2];
    if (a === "meta" && b === "l4proto") return ["l4proto", 2];
    if ((a === "th" || l4protos.has(a)) && b === "dport") return ["dport", 2];
    return undefined;
  };
  while (i < w.length) {
    const a = word(i);
    const sel = selectorAt(i);
    if (sel !== undefined) {
      const sels: Selector[] = [sel[0]];
      // `tcp dport N` also requires the protocol.
      if (l4protos.has(a)) ops.push({ op: "cmp", sel: "l4proto", negated: false, values: [a] });
      i += sel[1];
      while (word(i) === ".") {
        const next = selectorAt(i + 1) ?? fail();
        sels.push(next[0]);
        i += 1 + next[1];
      }
      const negated = word(i) === "!=";
      if (negated) i++;
      const operand = word(i);
      if (operand === "vmap") {
        const m = word(i + 1);
        if (!m.startsWith("@")) fail();
        ops.push({ op: "vmap", sels, map: m.slice(1) });
        i += 2;
      } else if (operand.startsWith("@")) {
        ops.push({ op: "lookup", sels, set: operand.slice(1), negated });
        i += 1;
      } else if (sels.length === 1 && operand !== "") {
        const values = operand.startsWith("{") ? braceItems(operand) : [operand];
        ops.push({ op: "cmp", sel: sels[0] ?? "daddr", negated, values });
        i += 1;
      } else fail();
      continue;
    }
    switch (a) {
      case "fib": {
        const s = word(i + 1);
        if ((s !== "daddr" && s !== "saddr") || word(i + 2) !== "type") fail();
        const negated = word(i + 3) === "!=";
        if (word(i + (negated ? 4 : 3)) !== "local") fail();
        ops.push({ op: "fib", sel: s as "daddr" | "saddr", negated });
        i += negated ? 5 : 4;
        break;
      }
      case "ct": {
        if (word(i + 1) !== "state") fail();
        const negated = word(i + 2) === "!=";
        const v = word(i + (negated ? 3 : 2));
        ops.push({ op: "ctstate", negated, states: v.startsWith("{") ? braceItems(v) : v.split(",") });
        i += negated ? 4 : 3;
        break;
      }
      case "mark":
        if (word(i + 1) === "and") {
          const negated = word(i + 3) === "!=";
          if (!negated && word(i + 3) !== "==") fail();
          ops.push({ op: "markcmp", mask: Number(word(i + 2)), value: Number(word(i + 4)), negated });
          i += 5;
        } else if (word(i + 1) === "set" && word(i + 2) === "mark" && (word(i + 3) === "or" || word(i + 3) === "xor")) {
          ops.push({ op: "markset", how: word(i + 3) as "or" | "xor", value: Number(word(i + 4)) });
          i += 5;
        } else fail();
        break;
      case "numgen": {
        if (word(i + 1) !== "random" || word(i + 2) !== "mod" || word(i + 4) !== "vmap") fail();
        const entries = new Map<number, string>();
        for (const item of braceItems(word(i + 5))) {
          const [k, v] = item.split(" : ");
          entries.set(Number(k), (v ?? "").trim());
        }
        ops.push({ op: "numgen", mod: Number(word(i + 3)), entries });
        i += 6;
        break;
      }
      case "update":
        if (!word(i + 1).startsWith("@")) fail();
        ops.push({ op: "update", set: word(i + 1).slice(1) });
        i += 3; // the `{ ip saddr }` key follows
        break;
      case "dnat": {
        // `dnat to X`, or `dnat ip to X` in an inet table.
        const k = word(i + 1) === "to" ? i + 2 : i + 3;
        ops.push({ op: "dnat", to: word(k) });
        i = k + 1;
        break;
      }
      case "masquerade":
        ops.push({ op: "masquerade" });
        i += word(i + 1) === "fully-random" || word(i + 1) === "random" ? 2 : 1;
        break;
      case "counter":
        i += 1;
        break;
      case "comment":
        comment = word(i + 1);
        i += 2;
        break;
      case "jump":
      case "goto":
        ops.push({ op: "verdict", verdict: `${a} ${word(i + 1)}` });
        i += 2;
        break;
      case "return":
      case "accept":
      case "drop":
      case "reject":
      case "continue":
        ops.push({ op: "verdict", verdict: a });
        i += 1;
        break;
      default:
        fail();
    }
  }
  return { raw, ...(comment !== undefined ? { comment } : {}), ops };
}
