/**
 * Field selectors (k8s.io/apimachinery/pkg/fields): `a=b`, `a==b`, `a!=b`, comma-joined, with `\`
 * escapes. Each resource declares which fields it supports (upstream `GetAttrs`); anything else is
 * a BadRequest `field label not supported: <name>`.
 */
import { StatusError } from "@servicenet/api";

export interface FieldRequirement {
  field: string;
  operator: "=" | "!=";
  value: string;
}

export type FieldSelector = readonly FieldRequirement[];

function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length) {
      cur += c + s[i + 1]!;
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const unescape = (s: string): string => s.replace(/\\(.)/g, "$1");

/** Parses a field selector string; "" selects everything. */
export function parseFieldSelector(selector: string): FieldSelector {
  if (selector.trim() === "") return [];
  return splitUnescaped(selector, ",").map((part) => {
    for (const op of ["!=", "==", "="] as const) {
      const i = part.indexOf(op);
      if (i > 0) {
        return { field: part.slice(0, i).trim(), operator: op === "!=" ? "!=" : "=", value: unescape(part.slice(i + op.length).trim()) };
      }
    }
    throw StatusError.badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
  });
}

/** Rejects fields the resource does not index, with upstream's message. */
export function checkSupportedFields(sel: FieldSelector, supported: ReadonlySet<string>): void {
  for (const r of sel) if (!supported.has(r.field)) throw StatusError.badRequest(`field label not supported: ${r.field}`);
}

/** True when `fields` satisfy every requirement (absent fields compare as ""). */
export function matchesFields(sel: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return sel.every((r) => ((fields[r.field] ?? "") === r.value) === (r.operator === "="));
}
