/**
 * PruneWithOptions (apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go): drops the
 * object fields the structural schema does not specify, keeping what is under
 * `x-kubernetes-preserve-unknown-fields` and the apiVersion, kind and metadata of embedded
 * resources (the root is one), and returns the dropped fields' paths, sorted, for
 * fieldValidation (`spec.foo`, `spec.list[0].bar`).
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

const metaFields = new Set(["apiVersion", "kind", "metadata"]);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The schema `additionalProperties` gives each value; `true` (no schema) prunes what is below like a missing schema. */
function additional(s: JSONSchemaProps): { schema: JSONSchemaProps | undefined } | undefined {
  const ap = s.additionalProperties;
  if (ap === undefined || ap === false) return undefined;
  return { schema: ap === true ? undefined : ap };
}

function items(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
}

const join = (parent: string, key: string): string => (parent === "" ? key : `${parent}.${key}`);

/** Prunes `obj` in place; `isResourceRoot` keeps the root's apiVersion, kind and metadata. */
export function prune(obj: unknown, s: JSONSchemaProps | undefined, isResourceRoot: boolean): string[] {
  const unknown: string[] = [];
  const schema = isResourceRoot ? { ...(s ?? {}), "x-kubernetes-embedded-resource": true } : s;
  pruneValue(obj, schema, "", unknown);
  return unknown.sort();
}

function pruneValue(x: unknown, s: JSONSchemaProps | undefined, at: string, unknown: string[]): void {
  if (s !== undefined && s["x-kubernetes-preserve-unknown-fields"] === true) {
    skipPrune(x, s, at, unknown);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => pruneValue(v, items(s), `${at}[${i}]`, unknown));
    return;
  }
  if (!isObject(x)) return;
  if (s === undefined) {
    for (const k of Object.keys(x)) {
      unknown.push(join(at, k));
      delete x[k];
    }
    return;
  }
  const ap = additional(s);
  for (const [k, v] of Object.entries(x)) {
    if (s["x-kubernetes-embedded-resource"] === true && metaFields.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop !== undefined) pruneValue(v, prop, join(at, k), unknown);
    else if (ap !== undefined) pruneValue(v, ap.schema, join(at, k), unknown);
    else {
      if (!metaFields.has(k) || at !== "") unknown.push(join(at, k));
      delete x[k];
    }
  }
}

/** Below `x-kubernetes-preserve-unknown-fields`: unknown fields stay, specified ones are pruned by their schema. */
function skipPrune(x: unknown, s: JSONSchemaProps, at: string, unknown: string[]): void {
  if (Array.isArray(x)) {
    const it = items(s);
    if (it !== undefined) x.forEach((v, i) => skipPrune(v, it, `${at}[${i}]`, unknown));
    return;
  }
  if (!isObject(x)) return;
  const ap = additional(s);
  for (const [k, v] of Object.entries(x)) {
    if (s["x-kubernetes-embedded-resource"] === true && metaFields.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop !== undefined) pruneValue(v, prop, join(at, k), unknown);
    else if (ap !== undefined) pruneValue(v, ap.schema, join(at, k), unknown);
  }
}
