/**
 * The iptables state the tracer evaluates, kept as the kernel would after a
 * sequence of `iptables-restore --noflush` inputs (upstream's
 * iptablestest.FakeIPTables.RestoreAll): a `:CHAIN` line creates or flushes a
 * chain, `-A` appends, `-X` deletes; built-in chains and kube-proxy's jump
 * rules (`iptablesJumpChains`, which it installs with plain iptables calls) are
 * there from the start. Rules are parsed when first evaluated, so loading a
 * 10,000-Service ruleset costs a split, not a parse.
 */
import { jumpChains, jumpRuleArgs, kubeletJumpChains } from "../../iptables/jump-chains.ts";
import type { JumpChain } from "../../iptables/jump-chains.ts";
import { canonicalIP } from "../addresses.ts";
import { parseRule } from "./rule.ts";
import type { IptablesRule } from "./rule.ts";

export type IptablesTable = "filter" | "nat";

/** Built-in chains per table, in the order iptables-save lists them. */
export const builtinChains: Record<IptablesTable, readonly string[]> = {
  filter: ["INPUT", "FORWARD", "OUTPUT"],
  nat: ["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"],
};

// Long chains (KUBE-SERVICES has a rule per Service port) are indexed by their `-d` address, so
// a trace parses only the rules that can match its destination, not all 10,000.
const indexThreshold = 64;

/** The literal of a rule's non-negated `-d ADDRESS` (not a CIDR), or undefined: found with indexOf, not a regex. */
function destinationLiteral(line: string): string | undefined {
  const at = line.startsWith("-d ") ? 0 : line.indexOf(" -d ") + 1;
  if (at <= 0 && !line.startsWith("-d ")) return undefined;
  if (line.startsWith("! ", at - 2) || (at === 2 && line.startsWith("! "))) return undefined;
  const start = at + 3;
  const end = line.indexOf(" ", start);
  const addr = line.slice(start, end < 0 ? undefined : end);
  return addr === "" || addr.includes("/") ? undefined : addr;
}

/** One chain: its rule texts and, once evaluated, their parsed forms. */
export class IptablesChain {
  readonly lines: string[] = [];
  #parsed: (IptablesRule | undefined)[] = [];
  #index: { byDst: Map<string, number[]>; any: number[]; cache: Map<string, readonly number[]> } | undefined;

  /** Appends a rule (`-A`). */
  append(line: string): void {
    this.lines.push(line);
    this.#index = undefined;
  }

  /**
   * The indexes of the rules that may match a packet to `dst` (canonical), in order: every rule
   * in a short chain; in a long one, those with `-d dst` and those without a literal `-d`.
   */
  candidates(dst: string): readonly number[] | undefined {
    if (this.lines.length < indexThreshold) return undefined;
    const idx = (this.#index ??= this.#buildIndex());
    let c = idx.cache.get(dst);
    if (c === undefined) {
      c = merge(idx.byDst.get(dst) ?? [], idx.any);
      if (idx.cache.size > 256) idx.cache.clear();
      idx.cache.set(dst, c);
    }
    return c;
  }

  #buildIndex() {
    const byDst = new Map<string, number[]>();
    const any: number[] = [];
    this.lines.forEach((line, i) => {
      const addr = destinationLiteral(line);
      if (addr === undefined) any.push(i);
      else {
        const key = canonicalIP(addr);
        let list = byDst.get(key);
        if (list === undefined) byDst.set(key, (list = []));
        list.push(i);
      }
    });
    return { byDst, any, cache: new Map<string, readonly number[]>() };
  }

  /** The parsed i-th rule. */
  rule(i: number): IptablesRule {
    let r = this.#parsed[i];
    if (r === undefined) {
      r = parseRule(this.lines[i] ?? "");
      this.#parsed[i] = r;
    }
    return r;
  }

  flush(): void {
    this.lines.length = 0;
    this.#parsed = [];
    this.#index = undefined;
  }

  /** Inserts at the top (`-I CHAIN`). */
  insert(line: string): void {
    this.lines.unshift(line);
    this.#parsed.unshift(undefined);
    this.#index = undefined;
  }
}

function merge(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i] ?? 0) < (b[j] ?? 0))) out.push(a[i++] ?? 0);
    else out.push(b[j++] ?? 0);
  }
  return out;
}

export interface IptablesRulesetOptions {
  /** Install kube-proxy's jump rules from the built-in chains (default true). */
  readonly jumpRules?: boolean;
  /** Also kubelet's KUBE-FIREWALL jumps (IPv4 with localhost NodePorts). */
  readonly kubeletJumpRules?: boolean;
}

/** The filter and nat tables of one family. */
export class IptablesRuleset {
  readonly tables: Record<IptablesTable, Map<string, IptablesChain>> = { filter: new Map(), nat: new Map() };

  constructor(opts: IptablesRulesetOptions = {}) {
    for (const t of ["filter", "nat"] as const) for (const c of builtinChains[t]) this.tables[t].set(c, new IptablesChain());
    const jumps: JumpChain[] = [];
    if (opts.jumpRules ?? true) jumps.push(...jumpChains);
    if (opts.kubeletJumpRules ?? false) jumps.push(...kubeletJumpChains);
    // EnsureRule(Prepend): each jump goes to the top, so the last ensured is first.
    for (const j of jumps) {
      this.#ensure(j.table, j.dstChain);
      this.#ensure(j.table, j.srcChain).insert(jumpRuleArgs(j).map(quote).join(" "));
    }
  }

  /** Indexes the long chains now rather than on the first trace (loading a node's rules once, tracing many flows). */
  prepare(): this {
    for (const t of Object.values(this.tables)) for (const c of t.values()) c.candidates("");
    return this;
  }

  /** The chain, or undefined. */
  chain(table: IptablesTable, name: string): IptablesChain | undefined {
    return this.tables[table].get(name);
  }

  /**
   * Applies one `iptables-restore --noflush` input.
   * @throws Error on a line outside the restore format.
   */
  restore(text: string): this {
    let table: IptablesTable | undefined;
    for (const line of text.split("\n")) {
      if (line === "" || line.startsWith("#") || line === "COMMIT") continue;
      if (line.startsWith("*")) {
        const name = line.slice(1);
        if (name !== "filter" && name !== "nat") throw new Error(`table ${name} is not traced`);
        table = name;
        continue;
      }
      if (table === undefined) throw new Error(`rule outside a table: ${line}`);
      const chains = this.tables[table];
      if (line.startsWith(":")) {
        const name = line.slice(1, line.indexOf(" ") < 0 ? undefined : line.indexOf(" "));
        const c = chains.get(name);
        if (c === undefined) chains.set(name, new IptablesChain());
        else c.flush();
      } else if (line.startsWith("-A ") || line.startsWith("-I ")) {
        const sp = line.indexOf(" ", 3);
        const name = line.slice(3, sp < 0 ? undefined : sp);
        const c = chains.get(name);
        if (c === undefined) throw new Error(`rule for undeclared chain ${name}: ${line}`);
        const rule = sp < 0 ? "" : line.slice(sp + 1);
        if (line[1] === "A") c.append(rule);
        else c.insert(rule);
      } else if (line.startsWith("-X ")) {
        chains.delete(line.slice(3).trim());
      } else if (line.startsWith("-F ")) {
        chains.get(line.slice(3).trim())?.flush();
      } else {
        throw new Error(`unsupported restore line: ${line}`);
      }
    }
    return this;
  }

  #ensure(table: IptablesTable, name: string): IptablesChain {
    let c = this.tables[table].get(name);
    if (c === undefined) {
      c = new IptablesChain();
      this.tables[table].set(name, c);
    }
    return c;
  }
}

function quote(word: string): string {
  return word.includes(" ") ? `"${word}"` : word;
}
