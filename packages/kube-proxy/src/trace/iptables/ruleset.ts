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
import { parseRule } from "./rule.ts";
import type { IptablesRule } from "./rule.ts";

export type IptablesTable = "filter" | "nat";

/** Built-in chains per table, in the order iptables-save lists them. */
export const builtinChains: Record<IptablesTable, readonly string[]> = {
  filter: ["INPUT", "FORWARD", "OUTPUT"],
  nat: ["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"],
};

/** One chain: its rule texts and, once evaluated, their parsed forms. */
export class IptablesChain {
  readonly lines: string[] = [];
  #parsed: (IptablesRule | undefined)[] = [];

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
  }

  /** Inserts at the top (`-I CHAIN`). */
  insert(line: string): void {
    this.lines.unshift(line);
    this.#parsed.unshift(undefined);
  }
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
        if (line[1] === "A") c.lines.push(rule);
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
