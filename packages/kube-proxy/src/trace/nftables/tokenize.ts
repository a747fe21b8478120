/**
 * Words of one nft statement: `{ ... }` groups and double-quoted strings stay
 * single words (braces kept, quotes dropped), as the nft parser groups them.
 */

/**
 * The words of `line`.
 * @throws Error on an unbalanced brace or quote.
 */
export function nftWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === " " || c === "\t") {
      i++;
    } else if (c === "{") {
      const end = closingBrace(line, i);
      words.push(line.slice(i, end + 1));
      i = end + 1;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      if (end < 0) throw new Error(`unterminated quote in ${JSON.stringify(line)}`);
      words.push(line.slice(i + 1, end));
      i = end + 1;
    } else {
      let j = i;
      while (j < n && line[j] !== " " && line[j] !== "\t") j++;
      words.push(line.slice(i, j));
      i = j;
    }
  }
  return words;
}

function closingBrace(line: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "{") depth++;
    else if (!quoted && c === "}" && --depth === 0) return i;
  }
  throw new Error(`unbalanced brace in ${JSON.stringify(line)}`);
}

/** The items of a `{ a, b : c }` group, split at top-level commas. */
export function braceItems(group: string): string[] {
  const body = group.slice(1, -1);
  const items: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ",") {
      items.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = body.slice(start).trim();
  if (last !== "") items.push(last);
  return items;
}
