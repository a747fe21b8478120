/**
 * Label and field selectors for list and watch, the string forms upstream parses in
 * `apimachinery/pkg/labels/selector.go` (=, ==, !=, in, notin, exists, !exists) and
 * `apimachinery/pkg/fields/selector.go` (=, ==, !=).
 */

export type Matcher = (obj: unknown) => boolean;

/** Splits on commas outside parentheses: "a in (x,y),b" -> ["a in (x,y)", "b"]. */
function terms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim() !== "") out.push(cur.trim());
  return out;
}

function labelTerm(t: string): (labels: Record<string, string>) => boolean {
  let m = /^(\S+?)\s*(==|=|!=)\s*(\S*)$/.exec(t);
  if (m) {
    const [, k, op, v] = m as unknown as [string, string, string, string];
    return op === "!=" ? (l) => l[k] !== v : (l) => l[k] === v;
  }
  m = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(t);
  if (m) {
    const [, k, op, list] = m as unknown as [string, string, string, string];
    const values = new Set(list.split(",").map((v) => v.trim()));
    return op === "in" ? (l) => l[k] !== undefined && values.has(l[k]) : (l) => l[k] === undefined || !values.has(l[k]);
  }
  if (t.startsWith("!")) return (l) => !(t.slice(1) in l);
  return (l) => t in l;
}

/** A matcher for a labelSelector query value; null or "" matches everything. */
export function labelMatcher(selector: string | null): Matcher {
  const checks = terms(selector ?? "").map(labelTerm);
  return (obj) => {
    const labels = (obj as { metadata?: { labels?: Record<string, string> } }).metadata?.labels ?? {};
    return checks.every((c) => c(labels));
  };
}

function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[part];
  if (cur === undefined || cur === null) return "";
  if (typeof cur === "string") return cur;
  if (typeof cur === "number" || typeof cur === "boolean" || typeof cur === "bigint") return String(cur);
  return JSON.stringify(cur) ?? "";
}

/** A matcher for a fieldSelector query value (any dotted path of the object). */
export function fieldMatcher(selector: string | null): Matcher {
  const checks = terms(selector ?? "").map((t) => {
    const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(t);
    if (m === null) throw new Error(`invalid field selector term ${JSON.stringify(t)}`);
    const [, path, op, value] = m as unknown as [string, string, string, string];
    return op === "!=" ? (o: unknown) => fieldValue(o, path) !== value : (o: unknown) => fieldValue(o, path) === value;
  });
  return (obj) => checks.every((c) => c(obj));
}

/** The name a `metadata.name=x` field selector pins, if it does. */
export const selectedName = (selector: string | null): string | undefined => /(?:^|,)metadata\.name==?([^,]+)/.exec(selector ?? "")?.[1];
