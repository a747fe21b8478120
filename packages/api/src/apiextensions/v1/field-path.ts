/**
 * A validation rule's `fieldPath` resolved against the schema it is declared on
 * (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go ValidFieldPath): `.a.b` and
 * `['a.b']` name properties, or keys where the node is a map (additionalProperties); list indices
 * are not allowed.
 */
import { keyPath } from "../../errors/field-error.ts";
import type { JSONSchemaProps } from "./types.ts";

/** The path's tokens: the delimiters `.`, `[` and `]` alone, the text between them as one token. */
function tokens(p: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (quoted) {
      cur += c;
      if (c === "\\" && i + 1 < p.length) cur += p[++i];
      else if (c === "'") quoted = false;
      continue;
    }
    if (c === "." || c === "[" || c === "]") {
      if (cur !== "") out.push(cur);
      out.push(c);
      cur = "";
    } else {
      if (c === "'") quoted = true;
      cur += c;
    }
  }
  if (cur !== "") out.push(cur);
  return out;
}

/** unescapeSingleQuote: `\'` and `\\` inside a single-quoted name. */
const unescape = (s: string): string => s.replace(/\\(['\\])/g, "$1");

/**
 * The field path `fieldPath` names under `schema` (`spec.x`, `spec[a.b]`), or undefined if it does
 * not refer to a field of the schema.
 */
export function validFieldPath(fieldPath: string, schema: JSONSchemaProps): string | undefined {
  const toks = tokens(fieldPath);
  let s: JSONSchemaProps | undefined = schema;
  let out = "";
  const step = (name: string): boolean => {
    if (s === undefined) return false;
    if (s.properties !== undefined) {
      s = s.properties[name];
      out = out === "" ? name : `${out}.${name}`;
      return s !== undefined;
    }
    if (typeof s.additionalProperties === "object") {
      s = s.additionalProperties;
      out = keyPath(out, name);
      return true;
    }
    return false;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t === "[") {
      const q = toks[++i];
      if (q === undefined || q.length < 2 || !q.startsWith("'") || !q.endsWith("'")) return undefined;
      if (!step(unescape(q.slice(1, -1))) || toks[++i] !== "]") return undefined;
    } else if (t === ".") {
      const name = toks[++i];
      if (name === undefined || name === "." || name === "[" || name === "]" || !step(name)) return undefined;
    } else return undefined;
  }
  return out;
}
