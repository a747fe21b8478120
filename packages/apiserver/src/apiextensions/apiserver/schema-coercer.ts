/**
 * unstructuredSchemaCoercer.apply (apiextensions-apiserver pkg/apiserver/customresource_handler.go)
 * and the storage codec's defaulter: how a custom object is fitted to its version's structural
 * schema when it is decoded (request bodies and patch results) and when it is read back.
 */
import { dropNulls, ObjectMetaSchema } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from "./schema/defaulting/algorithm.ts";
import { prune } from "./schema/pruning/algorithm.ts";

const objectMetaFields = new Set(Object.keys(ObjectMetaSchema.shape));

export interface SchemaCoercer {
  /** Prunes (unless the CRD preserves unknown fields) and returns the unknown fields' paths. */
  coerce(obj: Record<string, unknown>): string[];
  /** structuraldefaulting.Default over the whole object. */
  defaults(obj: Record<string, unknown>): void;
  /** A stored object as read through the storage codec: pruned and defaulted, in a copy. */
  read<T extends Record<string, unknown>>(obj: T): T;
}

/**
 * ObjectMeta is typed: nulls go and fields ObjectMeta does not have are dropped and reported
 * (GetObjectMetaWithOptions with ReturnUnknownFieldPaths).
 */
function coerceObjectMeta(obj: Record<string, unknown>): string[] {
  const m = obj["metadata"];
  if (m === null || typeof m !== "object" || Array.isArray(m)) return [];
  const meta = dropNulls(m as Record<string, unknown>);
  const unknown = Object.keys(meta).filter((k) => !objectMetaFields.has(k));
  for (const k of unknown) delete meta[k];
  obj["metadata"] = meta;
  return unknown.map((k) => `metadata.${k}`);
}

/** Embedded resources' ObjectMeta is typed too (schemaobjectmeta.Coerce): their unknown fields are dropped and reported. */
function coerceEmbeddedObjectMeta(x: unknown, s: JSONSchemaProps | undefined, at: string, out: string[]): void {
  if (s === undefined || x === null || typeof x !== "object") return;
  if (Array.isArray(x)) {
    const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((v, i) => coerceEmbeddedObjectMeta(v, items, `${at}[${i}]`, out));
    return;
  }
  const obj = x as Record<string, unknown>;
  if (s["x-kubernetes-embedded-resource"] === true) out.push(...coerceObjectMeta(obj).map((p) => `${at}.${p}`));
  const ap = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (s["x-kubernetes-embedded-resource"] === true && k === "metadata") continue;
    const sub = s.properties?.[k] ?? ap;
    coerceEmbeddedObjectMeta(v, sub, at === "" ? k : `${at}.${k}`, out);
  }
}

/** The coercer of one CRD version's `schema`; `preserveUnknownFields` is the CRD's spec.preserveUnknownFields. */
export function newSchemaCoercer(schema: JSONSchemaProps | undefined, preserveUnknownFields: boolean): SchemaCoercer {
  const pruneAll = (obj: Record<string, unknown>): string[] => {
    if (preserveUnknownFields || schema === undefined) return [];
    const paths = prune(obj, schema, true);
    pruneNonNullableNullsWithoutDefaults(obj, schema);
    return paths;
  };
  return {
    coerce: (obj) => {
      const meta = coerceObjectMeta(obj);
      const pruned = pruneAll(obj);
      const embedded: string[] = [];
      if (!preserveUnknownFields) coerceEmbeddedObjectMeta(obj, schema, "", embedded);
      return [...meta, ...pruned, ...embedded];
    },
    defaults: (obj) => applyDefaults(obj, schema),
    read: (obj) => {
      const out = structuredClone(obj);
      pruneAll(out);
      applyDefaults(out, schema);
      return out;
    },
  };
}
