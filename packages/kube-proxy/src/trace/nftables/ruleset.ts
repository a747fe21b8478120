/**
 * The nftables state the tracer evaluates, after a sequence of `nft -f`
 * transactions as kube-proxy writes them (upstream tests run them through
 * knftables.Fake): tables, chains (base chains with their hook and priority),
 * rules, and named sets and maps with their elements. Rules are parsed when
 * first evaluated.
 */
import { parseNftRule } from "./rule.ts";
import type { NftRule } from "./rule.ts";
import { braceItems, nftWords } from "./tokenize.ts";

/** One element: key parts (`172.30.0.41`, `tcp`, `80`), its value (`goto service-…`) and comment. */
export interface NftElement {
  readonly key: readonly string[];
  readonly value?: string;
  readonly comment?: string;
}

export interface NftSet {
  readonly name: string;
  readonly isMap: boolean;
  readonly elements: Map<string, NftElement>;
  /** Some element has a CIDR part: lookups must scan, not only hash. */
  hasIntervals: boolean;
}

/** A chain; `hook` and `priority` for base chains. */
export class NftChain {
  readonly lines: string[] = [];
  #parsed: (NftRule | undefined)[] = [];
  hook: string | undefined;
  priority = 0;
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  rule(i: number): NftRule {
    let r = this.#parsed[i];
    if (r === undefined) {
      r = parseNftRule(this.lines[i] ?? "");
      this.#parsed[i] = r;
    }
    return r;
  }

  flush(): void {
    this.lines.length = 0;
    this.#parsed = [];
  }

  insert(rule: string): void {
    this.lines.unshift(rule);
    this.#parsed.unshift(undefined);
  }
}

/** One table (`ip kube-proxy`). */
export interface NftTable {
  readonly family: string;
  readonly name: string;
  readonly chains: Map<string, NftChain>;
  readonly sets: Map<string, NftSet>;
}

const elementKey = (parts: readonly string[]) => parts.join(" . ");

/** Every table the transactions built. */
export class NftablesRuleset {
  readonly tables = new Map<string, NftTable>();
  #baseChains: Map<string, [NftTable, NftChain][]> | undefined;

  /** The base chains of `hook` in every table, by priority (cached until the next transaction). */
  baseChains(hook: string): readonly [NftTable, NftChain][] {
    if (this.#baseChains === undefined) {
      const byHook = new Map<string, [NftTable, NftChain][]>();
      for (const t of this.tables.values()) {
        for (const c of t.chains.values()) {
          if (c.hook === undefined) continue;
          let list = byHook.get(c.hook);
          if (list === undefined) byHook.set(c.hook, (list = []));
          list.push([t, c]);
        }
      }
      for (const list of byHook.values()) list.sort((a, b) => a[1].priority - b[1].priority);
      this.#baseChains = byHook;
    }
    return this.#baseChains.get(hook) ?? [];
  }

  /**
   * Applies one `nft -f` transaction.
   * @throws Error on a statement outside what kube-proxy writes.
   */
  apply(text: string): this {
    this.#baseChains = undefined;
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      this.#statement(line);
    }
    return this;
  }

  /** The table `family name`, e.g. ("ip", "kube-proxy"). */
  table(family: string, name: string): NftTable | undefined {
    return this.tables.get(`${family} ${name}`);
  }

  #statement(line: string): void {
    const w = nftWords(line);
    const [verb, kind, family = "", tname = "", name = ""] = w;
    const id = `${family} ${tname}`;
    if (kind === "table") {
      if (verb === "add" || verb === "create") {
        if (!this.tables.has(id)) this.tables.set(id, { family, name: tname, chains: new Map(), sets: new Map() });
      } else if (verb === "delete" || verb === "destroy") this.tables.delete(id);
      else if (verb === "flush") {
        const t = this.#table(id, line);
        for (const c of t.chains.values()) c.flush();
        for (const s of t.sets.values()) s.elements.clear();
      } else throw new Error(`unsupported statement: ${line}`);
      return;
    }
    const t = this.#table(id, line);
    switch (`${verb} ${kind}`) {
      case "add chain":
      case "create chain": {
        let c = t.chains.get(name);
        if (c === undefined) t.chains.set(name, (c = new NftChain(name)));
        const spec = w[5];
        const hook = spec === undefined ? null : /\bhook (\w+) priority (-?\d+)/.exec(spec);
        if (hook) [c.hook, c.priority] = [hook[1], Number(hook[2])];
        return;
      }
      case "flush chain":
        return this.#chain(t, name, line).flush();
      case "delete chain":
      case "destroy chain":
        t.chains.delete(name);
        return;
      case "add rule":
      case "insert rule": {
        const c = this.#chain(t, name, line);
        const prefix = `${verb} rule ${family} ${tname} ${name} `;
        if (!line.startsWith(prefix)) throw new Error(`unsupported statement: ${line}`);
        const rule = line.slice(prefix.length);
        if (verb === "add") c.lines.push(rule);
        else c.insert(rule);
        return;
      }
      case "add set":
      case "add map":
        if (!t.sets.has(name)) t.sets.set(name, { name, isMap: kind === "map", elements: new Map(), hasIntervals: false });
        return;
      case "flush set":
      case "flush map":
        return this.#set(t, name, line).elements.clear();
      case "delete set":
      case "delete map":
        t.sets.delete(name);
        return;
      case "add element":
      case "delete element": {
        const set = this.#set(t, name, line);
        for (const item of braceItems(w[5] ?? "{}")) {
          const e = parseElement(item);
          if (verb === "add") {
            set.elements.set(elementKey(e.key), e);
            if (e.key.some((p) => p.includes("/"))) set.hasIntervals = true;
          } else set.elements.delete(elementKey(e.key));
        }
        return;
      }
      default:
        throw new Error(`unsupported statement: ${line}`);
    }
  }

  #table(id: string, line: string): NftTable {
    const t = this.tables.get(id);
    if (t === undefined) throw new Error(`no table ${id}: ${line}`);
    return t;
  }

  #chain(t: NftTable, name: string, line: string): NftChain {
    const c = t.chains.get(name);
    if (c === undefined) throw new Error(`no chain ${name}: ${line}`);
    return c;
  }

  #set(t: NftTable, name: string, line: string): NftSet {
    const s = t.sets.get(name);
    if (s === undefined) throw new Error(`no set or map ${name}: ${line}`);
    return s;
  }
}

/** `172.30.0.41 . tcp . 80 comment "ns/svc:p" : goto chain`. */
export function parseElement(item: string): NftElement {
  const colon = item.lastIndexOf(" : ");
  let key = colon < 0 ? item : item.slice(0, colon);
  const value = colon < 0 ? undefined : item.slice(colon + 3).trim();
  let comment: string | undefined;
  const c = /\s+comment\s+"([^"]*)"\s*$/.exec(key);
  if (c !== null) {
    comment = c[1];
    key = key.slice(0, c.index);
  }
  return {
    key: key.split(" . ").map((p) => p.trim()),
    ...(value !== undefined ? { value } : {}),
    ...(comment !== undefined ? { comment } : {}),
  };
}
