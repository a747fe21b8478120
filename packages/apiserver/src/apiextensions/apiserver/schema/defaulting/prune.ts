/**
 * PruneDefaults (apiextensions-apiserver pkg/apiserver/schema/defaulting/prune.go): each default
 * is put where it would land in an object (its surrounding object), that object is coerced as
 * ObjectMeta is and pruned with the root schema, and what is left at the default's place is the
 * default served. A default an embedded ObjectMeta cannot hold (`metadata.unknown`) so goes away.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { coerceEmbeddedObjectMeta, coerceObjectMeta } from "../objectmeta/coerce.ts";
import { prune } from "../pruning/algorithm.ts";

/** A step from a default's surrounding object down to it: a property (`*` for additionalProperties) or the first item. */
type Step = string | 0;

/** SurroundingObjectFunc: the default at `path` in an otherwise empty object. */
function surround(path: readonly Step[], focus: unknown): unknown {
  return path.reduceRight<unknown>((inner, step) => (step === 0 ? [inner] : { [step]: inner }), focus);
}

/** FocusAccessorFunc: what is left at `path`, or undefined when pruning removed it. */
function focusOf(root: unknown, path: readonly Step[]): unknown {
  let x = root;
  for (const step of path) {
    if (step === 0) x = Array.isArray(x) ? x[0] : undefined;
    else x = x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>)[step] : undefined;
    if (x === undefined) return undefined;
  }
  return x;
}

/** The schema with its defaults pruned, in a copy (the CRD's schema stays as written). */
export function pruneDefaults(schema: JSONSchemaProps): JSONSchemaProps {
  const root = structuredClone(schema);
  pruneIn(root, root, []);
  return root;
}

function pruneIn(root: JSONSchemaProps, s: JSONSchemaProps, path: Step[]): void {
  // The root's default must be an object (NewRootObjectFunc); CRD validation refuses others.
  if (s.default !== undefined && !(path.length === 0 && (s.default === null || typeof s.default !== "object"))) {
    const obj = surround(path, structuredClone(s.default)) as Record<string, unknown>;
    coerceObjectMeta(obj);
    coerceEmbeddedObjectMeta(obj, root, "", []);
    prune(obj, root, true);
    const left = focusOf(obj, path);
    if (left === undefined) delete s.default;
    else s.default = left;
  }
  if (typeof s.additionalProperties === "object") pruneIn(root, s.additionalProperties, [...path, "*"]);
  if (s.items !== undefined && !Array.isArray(s.items)) pruneIn(root, s.items, [...path, 0]);
  for (const [k, sub] of Object.entries(s.properties ?? {})) pruneIn(root, sub, [...path, k]);
}
