/**
 * Paths and sets of sigs.k8s.io/structured-merge-diff's fieldpath (path.go, element.go, set.go):
 * a path is a list of elements `f:<field>`, `k:<json keys>`, `v:<json value>` or `i:<index>`; a
 * set is the collection of member paths, each kept as its JSON text.
 */
import type { JSONObject } from "./json-value.ts";

/** One path; each element is a FieldsV1 key. */
export type FieldPath = readonly string[];

/** A set of paths; keys are JSON-encoded paths so that set algebra stays trivial. */
export type FieldSet = Set<string>;

export const pathKey = (p: FieldPath): string => JSON.stringify(p);
export const keyPath = (k: string): string[] => JSON.parse(k) as string[];

const elementRank = (el: string): number => "fkvi".indexOf(el[0] ?? "");

/** `f:` before `k:` before `v:` before `i:`, then by text, as structured-merge-diff sorts elements. */
export function compareElements(a: string, b: string): number {
  const d = elementRank(a) - elementRank(b);
  if (d !== 0) return d;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Renders a path as upstream's Path.String(): `.spec.ports[port=80,protocol="TCP"].targetPort`. */
export function pathString(p: FieldPath): string {
  return p
    .map((el) => {
      const body = el.slice(2);
      if (el.startsWith("f:")) return `.${body}`;
      if (el.startsWith("i:")) return `[${body}]`;
      if (el.startsWith("v:")) return `[=${body}]`;
      const keys = JSON.parse(body) as JSONObject;
      return `[${Object.entries(keys)
        .map(([n, v]) => `${n}=${JSON.stringify(v)}`)
        .join(",")}]`;
    })
    .join("");
}
