/**
 * `nftElementStorage`: what the kernel's sets and maps hold, so that a partial
 * sync only adds and deletes the elements that changed.
 */

/** One element: its key (`10.0.0.1 . tcp . 80`) and the rest (` comment "..." : goto chain`). */
export interface Element {
  readonly set: string;
  readonly key: string;
  readonly rest: string;
}

/** Renders the text inside `{ }` of an element. */
export function elementBody(e: Element, withValue: boolean): string {
  return withValue ? `${e.key}${e.rest}` : e.key;
}

export class ElementStorage {
  /** set name -> key -> rest, as last committed. */
  #applied = new Map<string, Map<string, string>>();

  /** Every element currently recorded (for metrics). */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [set, m] of this.#applied) out.set(set, m.size);
    return out;
  }

  /**
   * The `add element` / `delete element` lines that turn the applied contents
   * into `desired`. After a table flush everything is added again.
   */
  diff(prefix: string, desired: readonly Element[], flushed: boolean): { deletes: string[]; adds: string[]; next: Map<string, Map<string, string>> } {
    const next = new Map<string, Map<string, string>>();
    for (const e of desired) {
      let m = next.get(e.set);
      if (m === undefined) next.set(e.set, (m = new Map()));
      m.set(e.key, e.rest);
    }
    const deletes: string[] = [];
    const adds: string[] = [];
    const old = flushed ? new Map<string, Map<string, string>>() : this.#applied;
    for (const [set, m] of old) {
      const n = next.get(set);
      for (const [key, rest] of m) {
        const now = n?.get(key);
        // A changed value needs delete + add: "add element" does not replace a map value.
        if (now === undefined || now !== rest) deletes.push(`delete element ${prefix} ${set} { ${key} }`);
      }
    }
    for (const [set, m] of next) {
      const o = old.get(set);
      for (const [key, rest] of m) if (o?.get(key) !== rest) adds.push(`add element ${prefix} ${set} { ${key}${rest} }`);
    }
    return { deletes, adds, next };
  }

  /** Records a diff's result as applied. */
  commit(next: Map<string, Map<string, string>>): void {
    this.#applied = next;
  }
}
