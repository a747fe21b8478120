/**
 * The patch entry point the REST handler calls: decode the body for its
 * content type, apply it to the current object, and record managedFields.
 */
import { StatusError, type GroupResource } from "@servicenet/api";
import { parse as parseYAML } from "yaml";
import { isObject, type JSONObject, type JSONValue } from "./json-value.ts";
import { applyJSONPatch } from "./json-patch.ts";
import { applyMergePatch } from "./merge-patch.ts";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";
import { applyServerSideApply } from "./server-side-apply.ts";
import { updateManagedFields } from "./managed-fields.ts";
import type { FieldSchema } from "./field-schema.ts";
import { normalizeInts, parseJSON as parsePreservingInts } from "../../util/json/json.ts";

/** The patch media types, in the order kube-apiserver lists them in its 415 message. */
export const patchContentTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
] as const;

export type PatchContentType = (typeof patchContentTypes)[number];

export interface PatchOptions {
  /** The field manager (fieldManager query parameter, or the server's user-agent default). Required for apply. */
  fieldManager: string;
  /** `force=true` for apply. */
  force?: boolean;
  /** The kind whose merge keys strategic merge patch and apply use (`Service`). */
  schemaKind: string;
  /** The request's group/version (`v1`, `networking.k8s.io/v1`) for managedFields. */
  apiVersion?: string;
  now: Date;
  /** For the 404 of a non-apply patch of a missing object. */
  groupResource?: GroupResource;
  name?: string;
  subresource?: string;
  /**
   * The object is unstructured (a custom resource): the patch's integers stay int64, as
   * util/json's UnmarshalCaseSensitivePreserveInts reads them (util/json/json.ts).
   */
  preserveInts?: boolean;
  /** The object is unstructured (a custom resource): apply leaves the maps it empties null (RemoveOptions). */
  unstructured?: boolean;
  /** A custom resource's schema, for its field sets (field-schema.ts). */
  schema?: FieldSchema;
}

export interface PatchResult {
  object: JSONObject;
  /** True when an apply patch created the object. */
  created: boolean;
}

/**
 * Maximum bracket nesting of a patch body. Kubernetes objects nest about 15
 * levels; upstream's decoder stops at 10000, but the yaml parser and the
 * recursive mergers here would exhaust memory long before that.
 */
export const maxPatchDepth = 100;

/**
 * Rejects bodies whose `[`/`{` nesting exceeds maxPatchDepth, before any
 * parser sees them. Brackets inside strings count too: YAML's quoting rules
 * are too loose to skip them safely, and over-counting only rejects bodies
 * with a hundred unclosed brackets inside strings.
 */
export function checkNesting(body: string): void {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > maxPatchDepth) throw StatusError.badRequest(`error decoding patch: exceeded max depth of ${maxPatchDepth}`);
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
}

/** Translates a JSON.parse message into encoding/json's wording where the case is common. */
function goJSONError(e: unknown, body: string): string {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /at position (\d+)/.exec(msg);
  const atEnd = pos !== null && Number(pos[1]) >= body.trimEnd().length;
  if (/Unexpected end of JSON input/.test(msg) || atEnd) return "unexpected end of JSON input";
  const tok = /Unexpected token '?(.)'?/.exec(msg);
  if (tok) return `invalid character '${tok[1]}' looking for beginning of value`;
  return msg;
}

function parseJSON(body: string, context: string, preserveInts: boolean): unknown {
  try {
    return preserveInts ? parsePreservingInts(body) : (JSON.parse(body) as unknown);
  } catch (e) {
    throw StatusError.badRequest(`${context}${goJSONError(e, body)}`);
  }
}

/**
 * Strips `; charset=...` and validates the media type against `accepted` (upstream's
 * RequestScope patchTypes); another type gets upstream's 415 listing the accepted ones.
 */
export function patchTypeOf(contentType: string, accepted: readonly string[] = patchContentTypes): PatchContentType {
  const base = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  const found = patchContentTypes.find((t) => t === base && accepted.includes(t));
  if (found === undefined) {
    throw new StatusError(
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    );
  }
  return found;
}

/**
 * Applies `patchBody` (raw text) of `contentType` to `current`. JSON, merge
 * and strategic patches record an Update for `fieldManager`; apply patches go
 * through server-side apply and may create the object.
 */
export function applyPatch(contentType: string, current: JSONObject | undefined, patchBody: string, opts: PatchOptions): PatchResult {
  try {
    return applyPatchUnguarded(contentType, current, patchBody, opts);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    // Deeply nested input overflows the recursive walkers; upstream's decoder stops at a depth limit with a 400 too.
    if (e instanceof RangeError) throw StatusError.badRequest(`error decoding patch: ${e.message}`);
    throw StatusError.internal(e instanceof Error ? e.message : String(e), e);
  }
}

function applyPatchUnguarded(contentType: string, current: JSONObject | undefined, patchBody: string, opts: PatchOptions): PatchResult {
  const type = patchTypeOf(contentType);
  checkNesting(patchBody);
  if (type === "application/apply-patch+yaml") {
    let applied: unknown;
    try {
      // YAML 1.1 as sigs.k8s.io/yaml (go-yaml v2) reads it: `yes`/`on` are booleans, `<<` merges.
      applied = parseYAML(patchBody, { version: "1.1", merge: true, intAsBigInt: opts.preserveInts === true }) as unknown;
      if (opts.preserveInts === true) applied = normalizeInts(applied);
    } catch (e) {
      throw StatusError.badRequest(`error decoding YAML: ${e instanceof Error ? e.message : String(e)}`);
    }
    const r = applyServerSideApply(current, applied, {
      fieldManager: opts.fieldManager,
      force: opts.force ?? false,
      now: opts.now,
      ...(opts.subresource ? { subresource: opts.subresource } : {}),
      unstructured: opts.unstructured === true,
      ...(opts.schema ? { schema: opts.schema } : {}),
    });
    return { object: r.object, created: current === undefined };
  }
  if (current === undefined) throw StatusError.notFound(opts.groupResource ?? { group: "", resource: "" }, opts.name ?? "");
  const patched = patchOnce(type, current, patchBody, opts.schemaKind, opts.preserveInts === true);
  if (!isObject(patched)) throw StatusError.badRequest("the patched object is not a JSON object");
  if (opts.fieldManager === "") return { object: patched, created: false };
  const apiVersion = opts.apiVersion ?? (typeof current.apiVersion === "string" ? current.apiVersion : "");
  return {
    object: updateManagedFields(current, patched, opts.fieldManager, "Update", apiVersion, opts.now, opts.subresource, opts.schema),
    created: false,
  };
}

function patchOnce(type: PatchContentType, current: JSONObject, body: string, kind: string, preserveInts: boolean): JSONValue {
  switch (type) {
    case "application/json-patch+json":
      return applyJSONPatch(current, parseJSON(body, "", preserveInts));
    case "application/merge-patch+json":
      return applyMergePatch(current, parseJSON(body, "", preserveInts));
    default:
      return applyStrategicMergePatch(current, parseJSON(body, "", preserveInts), kind);
  }
}
