/**
 * Coerce (apiextensions-apiserver pkg/apiserver/schema/objectmeta/coerce.go): ObjectMeta is typed,
 * in a custom object's root and in its embedded resources: nulls go, and the fields ObjectMeta does
 * not have are dropped and reported as unknown (GetObjectMetaWithOptions with ReturnUnknownFieldPaths).
 */
import { dropNulls, ObjectMetaSchema } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { goDecodeError } from "../../../../server/go-decode.ts";
import { objectMetaGoTypes } from "../../../../server/go-types.ts";
import { goSharpV } from "../../validation/go-format.ts";

/**
 * An embedded resource's metadata that does not decode as ObjectMeta (coercer.coerce without
 * DropInvalidFields): the field error's text, `spec.x.metadata: Invalid value: map[...]: json: ...`.
 */
export class MalformedObjectMetaError extends Error {}

function checkObjectMeta(obj: Record<string, unknown>, at: string): void {
  const m = obj["metadata"];
  if (m === undefined || m === null) return;
  const err = goDecodeError(ObjectMetaSchema, m, objectMetaGoTypes);
  if (err !== undefined) throw new MalformedObjectMetaError(`${at}.metadata: Invalid value: ${goSharpV(m)}: ${err}`);
}

const objectMetaFields = new Set(Object.keys(ObjectMetaSchema.shape));

/** The root's metadata: coerced in place; returns the dropped fields' paths (`metadata.x`). */
export function coerceObjectMeta(obj: Record<string, unknown>): string[] {
  const m = obj["metadata"];
  if (m === null || typeof m !== "object" || Array.isArray(m)) return [];
  const meta = dropNulls(m as Record<string, unknown>);
  const unknown = Object.keys(meta).filter((k) => !objectMetaFields.has(k));
  for (const k of unknown) delete meta[k];
  obj["metadata"] = meta;
  return unknown.map((k) => `metadata.${k}`);
}

/**
 * The metadata of every embedded resource below `x` (not `x`'s own), pushing the dropped fields'
 * paths to `out`; with `strict` (request bodies) a metadata that does not decode throws
 * {@link MalformedObjectMetaError}, as the storage decoder's DropInvalidFields would not.
 */
export function coerceEmbeddedObjectMeta(x: unknown, s: JSONSchemaProps | undefined, at: string, out: string[], strict = false): void {
  if (s === undefined || x === null || typeof x !== "object") return;
  if (Array.isArray(x)) {
    const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((v, i) => coerceEmbeddedObjectMeta(v, items, `${at}[${i}]`, out, strict));
    return;
  }
  const obj = x as Record<string, unknown>;
  if (s["x-kubernetes-embedded-resource"] === true) {
    if (strict) checkObjectMeta(obj, at);
    out.push(...coerceObjectMeta(obj).map((p) => `${at}.${p}`));
  }
  const ap = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (s["x-kubernetes-embedded-resource"] === true && k === "metadata") continue;
    const sub = s.properties?.[k] ?? ap;
    coerceEmbeddedObjectMeta(v, sub, at === "" ? k : `${at}.${k}`, out, strict);
  }
}
