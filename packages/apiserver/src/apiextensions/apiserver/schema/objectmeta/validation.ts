/**
 * Validate (apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go): objects under
 * `x-kubernetes-embedded-resource: true` need apiVersion and kind, and their metadata is
 * validated as ObjectMeta (a name is not required).
 */
import {
  field,
  isDNS1035Label,
  isValidPathSegmentName,
  keyPath,
  ObjectMetaSchema,
  safeParseCompiled,
  validateObjectMeta,
  type FieldErrorList,
} from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { goBadValue } from "../../validation/go-format.ts";

const child = (at: string, k: string): string => (at === "" ? k : `${at}.${k}`);

/** The embedded resources in `x` (the root itself only when `isResourceRoot`). */
export function validateEmbeddedResources(at: string, x: unknown, s: JSONSchemaProps | undefined, isResourceRoot = false): FieldErrorList {
  if (s === undefined) return [];
  return validate(at, x, isResourceRoot ? { ...s, "x-kubernetes-embedded-resource": true } : s);
}

function validate(at: string, x: unknown, s: JSONSchemaProps | undefined): FieldErrorList {
  if (s === undefined || x === null || typeof x !== "object") return [];
  const errs: FieldErrorList = [];
  if (Array.isArray(x)) {
    const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((v, i) => errs.push(...validate(`${at}[${i}]`, v, items)));
    return errs;
  }
  const obj = x as Record<string, unknown>;
  if (s["x-kubernetes-embedded-resource"] === true) errs.push(...validateEmbeddedResource(at, obj));
  const ap = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  for (const [k, v] of Object.entries(obj)) {
    const prop = s.properties?.[k];
    if (prop !== undefined) errs.push(...validate(child(at, k), v, prop));
    else if (ap !== undefined) errs.push(...validate(keyPath(at, k), v, ap));
  }
  return errs;
}

/** A group version as schema.ParseGroupVersion accepts it: `v`, or `group/version`, one slash at most. */
function parseGroupVersionError(gv: string): string | undefined {
  if (gv === "/" || gv.split("/").length > 2) return `unexpected GroupVersion string: ${gv}`;
  return undefined;
}

function validateEmbeddedResource(at: string, x: Record<string, unknown>): FieldErrorList {
  const errs: FieldErrorList = [];
  if (!Object.hasOwn(x, "apiVersion")) errs.push(field.required(child(at, "apiVersion"), ""));
  if (!Object.hasOwn(x, "kind")) errs.push(field.required(child(at, "kind"), ""));
  for (const [k, v] of Object.entries(x)) {
    if (k === "apiVersion") {
      if (typeof v !== "string") errs.push(field.invalid(child(at, k), goBadValue(v), "must be a string"));
      else if (v === "") errs.push(field.required(child(at, k), ""));
      else {
        const e = parseGroupVersionError(v);
        if (e !== undefined) errs.push(field.invalid(child(at, k), v, e));
      }
    } else if (k === "kind") {
      if (typeof v !== "string") errs.push(field.invalid(child(at, k), goBadValue(v), "must be a string"));
      else if (v === "") errs.push(field.required(child(at, k), ""));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0)
          errs.push(field.invalid(child(at, k), v, `may have mixed case, but should otherwise match: ${msgs.join(",")}`));
      }
    } else if (k === "metadata") {
      const m = safeParseCompiled(ObjectMetaSchema, v ?? {});
      if (!m.success) {
        errs.push(field.invalid(child(at, k), goBadValue(v), m.error.issues[0]?.message ?? "invalid"));
        continue;
      }
      const meta = { ...m.data };
      if ((meta.name ?? "") === "") meta.name = "fakename";
      errs.push(
        ...validateObjectMeta(meta, {
          namespaced: (meta.namespace ?? "") !== "",
          path: child(at, "metadata"),
          nameValidator: (name) => isValidPathSegmentName(name),
        }),
      );
    }
  }
  return errs;
}
