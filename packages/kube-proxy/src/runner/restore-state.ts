/**
 * What the kernel holds after a series of `iptables-restore --noflush` inputs, for the dry-run
 * runner: kube-proxy's partial syncs (KEP-3453) rewrite only the chains that changed, so no single
 * input is the ruleset. `save()` prints the result as `iptables-save` does.
 *
 * Semantics as iptables' restore (iptables/iptables-restore.c, `ip6tables-restore` alike) with
 * --noflush: a `:CHAIN` line creates a user chain or flushes an existing one (a built-in chain's
 * line sets its policy); `-A` appends, `-I` inserts, `-F` flushes, `-X` deletes a user chain; a
 * table's lines take effect at its `COMMIT`.
 */

/** The built-in chains of each table, in the order iptables-save prints them. */
const builtinChains: Record<string, readonly string[]> = {
  filter: ["INPUT", "FORWARD", "OUTPUT"],
  nat: ["PREROUTING", "INPUT", "OUTPUT", "POSTROUTING"],
  mangle: ["PREROUTING", "INPUT", "FORWARD", "OUTPUT", "POSTROUTING"],
  raw: ["PREROUTING", "OUTPUT"],
  security: ["INPUT", "FORWARD", "OUTPUT"],
};

interface Table {
  /** Built-in chain -> policy. */
  policies: Map<string, string>;
  /** Chain -> its rules, each an `-A CHAIN ...` line. */
  chains: Map<string, string[]>;
}

/** One IP family's iptables state, fed restore inputs and printed as `iptables-save`. */
export class IptablesState {
  readonly #tables = new Map<string, Table>();

  /**
   * Applies one `iptables-restore --noflush` input; throws on a line restore would refuse, and
   * then changes nothing (kube-proxy's next sync after a failed one is full).
   */
  apply(data: string): void {
    const committed = new Map<string, Table>();
    let name: string | undefined;
    let table: Table | undefined;
    for (const raw of data.split("\n")) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      if (line.startsWith("*")) {
        name = line.slice(1);
        table = cloneTable(committed.get(name) ?? this.#tables.get(name) ?? newTable(name));
      } else if (table === undefined || name === undefined) {
        throw new Error(`iptables-restore: line outside a table: ${line}`);
      } else if (line === "COMMIT") {
        committed.set(name, table);
        table = undefined;
      } else applyLine(table, line);
    }
    if (table !== undefined) throw new Error(`iptables-restore: table ${name} has no COMMIT`);
    for (const [n, t] of committed) this.#tables.set(n, t);
  }

  /** The state as `iptables-save` prints it (without its dated comment lines). */
  save(): string {
    const out: string[] = [];
    for (const [name, t] of this.#tables) {
      const builtins = builtinChains[name] ?? [];
      const user = [...t.chains.keys()].filter((c) => !builtins.includes(c)).sort();
      out.push(`*${name}`);
      for (const c of builtins) out.push(`:${c} ${t.policies.get(c) ?? "ACCEPT"} [0:0]`);
      for (const c of user) out.push(`:${c} - [0:0]`);
      for (const c of [...builtins, ...user]) out.push(...(t.chains.get(c) ?? []));
      out.push("COMMIT");
    }
    return out.length === 0 ? "" : `${out.join("\n")}\n`;
  }
}

function newTable(name: string): Table {
  const builtins = builtinChains[name] ?? [];
  return { policies: new Map(builtins.map((c) => [c, "ACCEPT"])), chains: new Map(builtins.map((c) => [c, []])) };
}

function cloneTable(t: Table): Table {
  return { policies: new Map(t.policies), chains: new Map([...t.chains].map(([c, rules]) => [c, [...rules]])) };
}

function applyLine(t: Table, line: string): void {
  if (line.startsWith(":")) {
    const [chain, policy] = line.slice(1).split(/\s+/);
    if (t.policies.has(chain!)) t.policies.set(chain!, policy ?? "ACCEPT");
    else t.chains.set(chain!, []);
    return;
  }
  const [op, chain, ...rest] = line.split(/\s+/);
  const rules = chain === undefined ? undefined : t.chains.get(chain);
  if (rules === undefined) throw new Error(`iptables-restore: no chain/target/match by that name: ${line}`);
  switch (op) {
    case "-A":
      rules.push(line);
      return;
    case "-I": {
      const at = /^\d+$/.test(rest[0] ?? "") ? Number(rest.shift()) - 1 : 0;
      rules.splice(at, 0, `-A ${chain} ${rest.join(" ")}`);
      return;
    }
    case "-F":
      rules.length = 0;
      return;
    case "-X":
      if (t.policies.has(chain!)) throw new Error(`iptables-restore: cannot delete built-in chain: ${line}`);
      t.chains.delete(chain!);
      return;
    default:
      throw new Error(`iptables-restore: unsupported line: ${line}`);
  }
}
