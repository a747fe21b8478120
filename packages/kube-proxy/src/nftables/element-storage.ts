/**
 * Map and set elements, and the `add element` / `delete element` lines that
 * turn one service's previous elements into its current ones (upstream keeps
 * an `nftElementStorage` for the same purpose: partial syncs only touch the
 * elements that changed).
 */

/** One element: its key (`10.0.0.1 . tcp . 80`) and the rest (` comment "..." : goto chain`). */
export interface Element {
  readonly set: string;
  readonly key: string;
  readonly rest: string;
}

/** `add element <table> <set> { key rest }`. */
export function addElementLine(prefix: string, e: Element): string {
  return `add element ${prefix} ${e.set} { ${e.key}${e.rest} }`;
}

/** `delete element <table> <set> { key }`. */
export function deleteElementLine(prefix: string, e: Element): string {
  return `delete element ${prefix} ${e.set} { ${e.key} }`;
}

/**
 * Appends the deletes and adds that turn `before` into `after`. A changed value
 * needs delete + add: `add element` does not replace the verdict of a map key.
 */
export function diffElements(
  prefix: string,
  before: readonly Element[],
  after: readonly Element[],
  deletes: string[],
  adds: string[],
): void {
  const id = (e: Element) => `${e.set} ${e.key}`;
  const old = new Map(before.map((e) => [id(e), e]));
  const now = new Map(after.map((e) => [id(e), e]));
  for (const [k, e] of old) if (now.get(k)?.rest !== e.rest) deletes.push(deleteElementLine(prefix, e));
  for (const [k, e] of now) if (old.get(k)?.rest !== e.rest) adds.push(addElementLine(prefix, e));
}
