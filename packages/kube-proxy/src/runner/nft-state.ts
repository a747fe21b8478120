/**
 * What the kernel holds after a series of `nft -f` transactions, for the dry-run runner:
 * kube-proxy's partial syncs rewrite only the chains and elements that changed, so no single
 * transaction is the ruleset. `dump()` prints the state as one transaction that recreates it, in
 * the order sigs.k8s.io/knftables' Fake.Dump() uses (table, chains, sets, maps, rules, elements),
 * each kind by name and elements by key, so equal states print equal text.
 *
 * Semantics as nft's for the commands kube-proxy writes: `add` creates what is missing and
 * leaves what exists (an `add element` does not replace an existing key's value); `flush chain`
 * empties a chain, `flush set`/`flush map` empty a set, `flush table` does both for every chain
 * and set of the table; `delete` removes a chain, set, map or element and fails when it is
 * missing. A transaction is atomic: one failing command changes nothing.
 */

interface NamedDef {
  /** The `{ ... }` definition as first added (hook, type, comment), or "" for none. */
  def: string;
}
interface Chain extends NamedDef {
  rules: string[];
}
interface SetLike extends NamedDef {
  kind: "set" | "map";
  /** Element key -> the element's text as added (`key : verdict`, `key timeout 10s`). */
  elements: Map<string, string>;
}
interface NftTable extends NamedDef {
  chains: Map<string, Chain>;
  sets: Map<string, SetLike>;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One family's nftables state (the tables kube-proxy owns), fed `nft -f` transactions. */
export class NftablesState {
  #tables = new Map<string, NftTable>();

  /** Applies one transaction; throws on a command nft would refuse, and then changes nothing. */
  apply(data: string): void {
    const next = cloneTables(this.#tables);
    for (const raw of data.split("\n")) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      applyCommand(next, line);
    }
    this.#tables = next;
  }

  /** The state as one transaction (`add` lines) that recreates it. */
  dump(): string {
    const out: string[] = [];
    for (const [name, t] of [...this.#tables].sort(([a], [b]) => byName(a, b))) {
      out.push(`add table ${name}${t.def}`);
      const chains = [...t.chains].sort(([a], [b]) => byName(a, b));
      const sets = [...t.sets].sort(([a], [b]) => byName(a, b));
      for (const [c, ch] of chains) out.push(`add chain ${name} ${c}${ch.def}`);
      for (const kind of ["set", "map"] as const)
        for (const [s, set] of sets) if (set.kind === kind) out.push(`add ${kind} ${name} ${s}${set.def}`);
      for (const [c, ch] of chains) for (const r of ch.rules) out.push(`add rule ${name} ${c} ${r}`);
      for (const [s, set] of sets)
        for (const [, e] of [...set.elements].sort(([a], [b]) => byName(a, b))) out.push(`add element ${name} ${s} { ${e} }`);
    }
    return out.length === 0 ? "" : out.join("\n") + "\n";
  }
}

function cloneTables(tables: Map<string, NftTable>): Map<string, NftTable> {
  const out = new Map<string, NftTable>();
  for (const [n, t] of tables) {
    const chains = new Map([...t.chains].map(([c, ch]) => [c, { def: ch.def, rules: [...ch.rules] }]));
    const sets = new Map([...t.sets].map(([s, st]) => [s, { def: st.def, kind: st.kind, elements: new Map(st.elements) }]));
    out.set(n, { def: t.def, chains, sets });
  }
  return out;
}

/** `<verb> <object> <family> <table> [<name>] [rest]`, split where nft's grammar splits it. */
function parse(line: string): { verb: string; object: string; table: string; name: string; rest: string } {
  const m = /^(add|flush|delete)\s+(table|chain|set|map|rule|element)\s+(\S+)\s+(\S+)(?:\s+(\S+))?\s*(.*)$/.exec(line);
  if (!m) throw new Error(`nft: unsupported command: ${line}`);
  const [, verb = "", object = "", family = "", table = "", name = "", rest = ""] = m;
  // `add table ip kube-proxy { ... }`: the table takes no name, so what followed is its definition.
  if (object === "table") return { verb, object, table: `${family} ${table}`, name: "", rest: `${name} ${rest}`.trim() };
  return { verb, object, table: `${family} ${table}`, name, rest };
}

/** " { ... }" as nft prints a definition after a name, or "". */
const defOf = (rest: string): string => (rest === "" ? "" : ` ${rest}`);

function applyCommand(tables: Map<string, NftTable>, line: string): void {
  const c = parse(line);
  if (c.object === "table") return tableCommand(tables, c.verb, c.table, c.rest, line);
  const t = tables.get(c.table);
  if (t === undefined) throw new Error(`nft: no such table ${c.table}: ${line}`);
  if (c.object === "chain") return chainCommand(t, c.verb, c.name, c.rest, line);
  if (c.object === "rule") {
    const ch = t.chains.get(c.name);
    if (ch === undefined || c.verb !== "add") throw new Error(`nft: cannot apply: ${line}`);
    ch.rules.push(c.rest);
    return;
  }
  if (c.object === "element") return elementCommand(t, c.verb, c.name, c.rest, line);
  setCommand(t, c.verb, c.object as "set" | "map", c.name, c.rest, line);
}

function tableCommand(tables: Map<string, NftTable>, verb: string, name: string, rest: string, line: string): void {
  const t = tables.get(name);
  if (verb === "add") {
    if (t === undefined) tables.set(name, { def: defOf(rest), chains: new Map(), sets: new Map() });
  } else if (t === undefined) throw new Error(`nft: no such table: ${line}`);
  else if (verb === "delete") tables.delete(name);
  else {
    for (const ch of t.chains.values()) ch.rules = [];
    for (const s of t.sets.values()) s.elements.clear();
  }
}

function chainCommand(t: NftTable, verb: string, name: string, rest: string, line: string): void {
  const ch = t.chains.get(name);
  if (verb === "add") {
    if (ch === undefined) t.chains.set(name, { def: defOf(rest), rules: [] });
  } else if (ch === undefined) throw new Error(`nft: no such chain: ${line}`);
  else if (verb === "flush") ch.rules = [];
  else if ([...t.chains.values()].some((o) => o.rules.some((r) => jumpsTo(r, name))))
    throw new Error(`nft: chain is still referenced (Device or resource busy): ${line}`);
  else t.chains.delete(name);
}

/** Whether a rule jumps or goes to `chain` (a chain still referenced cannot be deleted). */
function jumpsTo(rule: string, chain: string): boolean {
  return rule.split(/[\s,{}]+/).some((w, i, ws) => w === chain && (ws[i - 1] === "jump" || ws[i - 1] === "goto"));
}

function setCommand(t: NftTable, verb: string, kind: "set" | "map", name: string, rest: string, line: string): void {
  const s = t.sets.get(name);
  if (verb === "add") {
    if (s === undefined) t.sets.set(name, { kind, def: defOf(rest), elements: new Map() });
  } else if (s === undefined || s.kind !== kind) throw new Error(`nft: no such ${kind}: ${line}`);
  else if (verb === "flush") s.elements.clear();
  else t.sets.delete(name);
}

/** The elements of `{ a : x, b : y }`, each with its key (what precedes ` comment`, ` timeout`, ` : `). */
function elementsOf(rest: string): { key: string; text: string }[] {
  const body = /^\{\s*(.*?)\s*\}$/.exec(rest)?.[1] ?? "";
  return body
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .map((text) => ({ key: text.split(/\s+(?::|timeout|expires|comment)\s+/)[0] ?? text, text }));
}

function elementCommand(t: NftTable, verb: string, name: string, rest: string, line: string): void {
  const s = t.sets.get(name);
  if (s === undefined) throw new Error(`nft: no such set or map: ${line}`);
  for (const e of elementsOf(rest)) {
    if (verb === "add") {
      if (!s.elements.has(e.key)) s.elements.set(e.key, e.text);
    } else if (verb === "delete") {
      if (!s.elements.delete(e.key)) throw new Error(`nft: no such element ${e.key}: ${line}`);
    } else throw new Error(`nft: cannot apply: ${line}`);
  }
}
