/** RFC 6901 JSON pointers: `/spec/ports/0/port`, with `~1` for `/` and `~0` for `~`. */

/** Splits a pointer into unescaped reference tokens; throws on a pointer that does not start with `/`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`JSON pointer must be empty or start with a "/": ${JSON.stringify(pointer)}`);
  // ~1 is decoded before ~0 so that "~01" becomes "~1", as RFC 6901 §4 requires.
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((t) => {
      if (t === "__proto__") throw new Error(`doc is missing path: "${t}"`);
      return t;
    });
}

/** Builds a pointer from unescaped tokens. */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => "/" + t.replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/**
 * Parses an array index token. `-` means "after the last element" and is only
 * valid where `allowEnd` (add, move and copy targets). Leading zeros are invalid.
 */
export function parseIndex(token: string, length: number, allowEnd: boolean): number {
  if (token === "-") {
    if (allowEnd) return length;
    throw new Error(`"-" is not a valid index here`);
  }
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`Unable to access invalid index: ${token}`);
  const i = Number(token);
  if (i > length || (!allowEnd && i === length)) throw new Error(`Unable to access invalid index: ${i}`);
  return i;
}
