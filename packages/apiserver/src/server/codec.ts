/**
 * Request body decoding as kube-apiserver does it: parse JSON or YAML, check apiVersion/kind
 * against the endpoint, decode with the kind's zod schema (nulls dropped, unknown fields stripped),
 * apply fieldValidation (Strict rejects, Warn warns, Ignore drops) and versioned defaulting.
 */
import { decodeObject, dropNulls, ObjectMetaSchema, safeParseCompiled, StatusError, unknownFieldMessage } from "@servicenet/api";
import { parseAllDocuments } from "yaml";
import type { KubeObject } from "../storage/index.ts";
import type { BodyFormat } from "./negotiation.ts";
import { goDecodeError, wrapUnstructuredInts } from "./go-decode.ts";
import { goTypesOf, objectMetaGoTypes } from "./go-types.ts";
import { countMembers, countMembersInTurns, duplicateFields } from "./json-duplicates.ts";
import { literalAt } from "./json-literal.ts";
import { canonical } from "./no-op.ts";
import { decodeProtobufBody } from "./protobuf/decode.ts";
import { apiVersionOf, type ResourceDef } from "./resources.ts";
import type { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { detachLargeMaps, reattachLargeMaps, type DetachedMaps } from "./large-maps.ts";
import { normalizeInts, parseJSON as parsePreservingInts } from "../util/json/json.ts";

export type FieldValidation = "Strict" | "Warn" | "Ignore";

/** The `fieldValidation` query parameter; upstream defaults to Warn. */
export function parseFieldValidation(v: string | null): FieldValidation {
  if (v === null || v === "") return "Warn";
  if (v === "Strict" || v === "Warn" || v === "Ignore") return v;
  throw StatusError.badRequest(`fieldValidation parameter unsupported: ${v}`);
}

/** Renders a JSON.parse failure in Go encoding/json's words. */
export function goJSONError(e: unknown, text: string): string {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /at position (\d+)/.exec(msg);
  if (/Unexpected end of JSON input/.test(msg) || (pos !== null && Number(pos[1]) >= text.trimEnd().length))
    return "unexpected end of JSON input";
  const tok = /Unexpected token '?(.)'?|Unexpected non-whitespace character/.exec(msg);
  if (tok) return tok[1] ? `invalid character '${tok[1]}' looking for beginning of value` : "invalid character after top-level value";
  return msg;
}

function typeName(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (v === null) return "null";
  return typeof v === "number" ? "number" : typeof v;
}

/** A body that is not JSON/YAML at all (no version/kind can be read from it). */
export class SyntaxDecodeError extends StatusError {
  constructor(detail: string) {
    super("BadRequest", detail);
  }
}

/** Upstream summarizeData: the first 30 bytes, as text for JSON objects and hex otherwise. */
function summarize(body: Buffer): string {
  if (body.length === 0) return "<empty>";
  const head = body.subarray(0, 30);
  const s = body[0] === 0x7b ? head.toString("utf8") : head.toString("hex");
  return body.length > 30 ? `${s} ...` : s;
}

/**
 * Deepest `[`/`{` nesting a request body may have. Served kinds nest about 15 levels; upstream's
 * decoder stops at 10000, but the recursive decoders here overflow the stack (a 500) long before.
 * The patch bodies' limit is the same (patch/apply-patch.ts).
 */
export const maxBodyDepth = 100;

/** True when `text` nests deeper than maxBodyDepth; JSON strings are skipped, YAML counts every bracket. */
export function tooDeep(text: string, json: boolean): boolean {
  return scanDepth(text, json) < 0;
}

/**
 * One pass over the text: -1 when it nests deeper than maxBodyDepth, else (for JSON) the number
 * of object members it writes, which is the number of `:` outside strings.
 */
function scanDepth(text: string, json: boolean): number {
  let depth = 0;
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 && json) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxBodyDepth) return -1;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
    else if (c === 0x3a) members++;
  }
  return members;
}

/** Parses a body into a JSON value; duplicate keys are collected into `duplicates`. */
export function parseBody(body: Buffer, format: BodyFormat, duplicates: string[] = []): unknown {
  return format === "protobuf" ? decodeProtobufBody(body) : parseText(body.toString("utf8"), format, duplicates, false);
}

/**
 * Custom resources decode into unstructured maps, whose JSON integers stay int64 (json.Serializer
 * unmarshals them with util/json's UnmarshalCaseSensitivePreserveInts); built-in kinds decode
 * into their Go types from JSON.parse's numbers, but for their apiextensionsv1.JSON fields, whose raw
 * bytes util/json reads later (`retypeInts`).
 */
export function preservesInts(def: ResourceDef): boolean {
  return def.coerce !== undefined || def.retypeInts !== undefined;
}

/** A JSON body parsed, with the number of object members its text writes (against duplicates). */
function parseJSON(text: string, preserveInts: boolean): { value: unknown; members: number } {
  const members = scanDepth(text, true);
  if (members < 0) throw new SyntaxDecodeError(`couldn't get version/kind; json parse error: exceeded max depth of ${maxBodyDepth}`);
  try {
    return { value: preserveInts ? parsePreservingInts(text) : (JSON.parse(text) as unknown), members };
  } catch (e) {
    throw new SyntaxDecodeError(`couldn't get version/kind; json parse error: ${goJSONError(e, text)}`);
  }
}

/** parseBody of a JSON or YAML body already decoded from UTF-8. */
function parseText(text: string, format: Exclude<BodyFormat, "protobuf">, duplicates: string[], preserveInts: boolean): unknown {
  if (format === "json") {
    const { value, members } = parseJSON(text, preserveInts);
    // The full duplicate scan only when the text has more members than the value kept.
    if (countMembers(value) !== members) duplicates.push(...duplicateFields(text));
    return value;
  }
  if (scanDepth(text, false) < 0) throw new SyntaxDecodeError(`error converting YAML to JSON: yaml: exceeded max depth of ${maxBodyDepth}`);
  // sigs.k8s.io/yaml converts YAML to JSON, which the unstructured decoder then reads with int64s kept.
  const intAsBigInt = preserveInts;
  let docs = parseAllDocuments(text, { uniqueKeys: true, intAsBigInt });
  let list = Array.isArray(docs) ? docs : [docs];
  const dup = list[0]?.errors.find((e) => e.code === "DUPLICATE_KEY");
  if (dup) {
    duplicates.push(`yaml: unmarshal errors:\n  line ${dup.linePos?.[0].line ?? 0}: ${dup.message.split("\n")[0]}`);
    docs = parseAllDocuments(text, { uniqueKeys: false, intAsBigInt });
    list = Array.isArray(docs) ? docs : [docs];
  }
  const err = list[0]?.errors[0];
  if (err) throw new SyntaxDecodeError(`error converting YAML to JSON: yaml: ${err.message.split("\n")[0]}`);
  if (list.length > 1) throw new SyntaxDecodeError("error converting YAML to JSON: yaml: multiple documents in one request body");
  try {
    const value: unknown = list[0]?.toJS() ?? null;
    return preserveInts ? normalizeInts(value) : value;
  } catch (e) {
    // Alias bombs ("Excessive alias count ...") and unresolvable aliases: the body's fault (400).
    throw new SyntaxDecodeError(`error converting YAML to JSON: yaml: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
}

const goTypes: Record<string, string> = { number: "int32", string: "string", boolean: "bool", object: "object", array: "array" };

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let cur = value;
  for (const p of path) cur = cur !== null && typeof cur === "object" ? (cur as Record<PropertyKey, unknown>)[p] : undefined;
  return cur;
}

/** A zod failure in encoding/json's words (`json: cannot unmarshal string into Go struct field ...`). */
function zodMessage(
  kind: string,
  version: string,
  raw: unknown,
  error: { issues: { path: PropertyKey[]; message: string; code?: string; expected?: unknown; params?: { goDecodeError?: boolean } }[] },
): string {
  const issue = error.issues[0];
  const where = (issue?.path ?? []).filter((p) => typeof p === "string").join(".");
  // A type's own UnmarshalJSON error (metav1.Time's `parsing time …`) carries no field path in Go.
  if (issue?.params?.goDecodeError === true) return `${kind} in version "${version}" cannot be handled as a ${kind}: ${issue.message}`;
  const detail =
    issue?.code === "invalid_type"
      ? `json: cannot unmarshal ${typeName(at(raw, issue.path))} into Go struct field ${kind}.${where} of type ${goTypes[String(issue.expected)] ?? String(issue.expected)}`
      : `${where}: ${issue?.message ?? "invalid"}`;
  return `${kind} in version "${version}" cannot be handled as a ${kind}: ${detail}`;
}

/** metav1.Time has second precision: clients that send milliseconds (client-node's Dates) get them truncated. */
function toRFC3339(v: unknown): unknown {
  if (typeof v !== "string" || !/\.\d+Z$/.test(v)) return v;
  return v.replace(/\.\d+Z$/, "Z");
}

function normaliseTimes(meta: Record<string, unknown>): void {
  for (const k of ["creationTimestamp", "deletionTimestamp"]) if (meta[k] !== undefined) meta[k] = toRFC3339(meta[k]);
  if (Array.isArray(meta["managedFields"]))
    for (const e of meta["managedFields"] as Record<string, unknown>[])
      if (e && typeof e === "object" && e["time"] !== undefined) e["time"] = toRFC3339(e["time"]);
}

/** How decodeValue reports a Go type error (an int32 overflow, a string for a number...). */
export interface DecodeOptions {
  /**
   * `body` (default): a create/update body, upstream's transformDecodeError 400. `patch`: the result
   * of a JSON or merge patch, the jsonPatcher's 422 on the `patch` field. `none`: not checked
   * (strategic merge and apply patches convert through unstructured maps upstream, with other rules).
   */
  typeErrors?: "body" | "patch" | "none";
  /** The JSON body text, for quoting a bad number as it was written. */
  text?: string;
  /** `value` is a request body just parsed, nobody else's: decoded without a copy when it has no nulls (decodeObject `owned`). */
  owned?: boolean;
  /** Maps `detachLargeMaps` set aside from `value`, put back into the decoded object before its defaults. */
  detached?: DetachedMaps;
  /** Custom resources: nulls the schema does not allow stay for validation to refuse (an apply result). */
  keepNulls?: boolean;
}

/** Decodes `raw` into the kind's Go types as upstream's decoder would, throwing its first type error. */
function checkGoTypes(def: ResourceDef, raw: Record<string, unknown>, opts: DecodeOptions): void {
  const mode = opts.typeErrors ?? "body";
  const types = goTypesOf(apiVersionOf(def), def.kind);
  if (mode === "none" || def.schema === undefined || types === undefined) return;
  const text = opts.text;
  const msg = goDecodeError(def.schema, raw, types, text === undefined ? undefined : (at) => literalAt(text, at));
  if (msg === undefined) return;
  if (mode === "body")
    throw StatusError.badRequest(`${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: ${msg}`);
  // jsonPatcher.applyPatchToCurrentObject: NewInvalid(schema.GroupKind{}, "", patch: Invalid value: <patched JSON>).
  // Upstream's JSON has Go's key order; this one has sorted keys, as encoding a Go map gives.
  // Its StatusDetails has no group, kind or name (all empty, omitempty): causes only.
  const { status } = StatusError.invalid({ group: "", kind: "" }, "", [
    { type: "Invalid", field: "patch", badValue: canonical(raw), detail: msg },
  ]);
  throw new StatusError("Invalid", status.message ?? "", { causes: status.details?.causes ?? [] });
}

/**
 * objectmeta.GetObjectMetaWithOptions: a custom resource's metadata is unmarshalled on its own into
 * metav1.ObjectMeta, so a type error names the fields from ObjectMeta down (`ObjectMeta.labels`).
 */
function customResourceMetadataTypes(def: ResourceDef, metadata: unknown): void {
  if (metadata === undefined || metadata === null) return;
  const msg = goDecodeError(ObjectMetaSchema, metadata, objectMetaGoTypes);
  if (msg !== undefined)
    throw StatusError.badRequest(`${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: ${msg}`);
}

/** A strategic merge patch's result as upstream's unstructured conversion gives it: int32 overflows wrapped. */
export function wrapPatchedInts(def: ResourceDef, value: unknown): void {
  const types = goTypesOf(apiVersionOf(def), def.kind);
  if (def.schema !== undefined && types !== undefined) wrapUnstructuredInts(def.schema, value, types);
}

export interface Decoded {
  obj: KubeObject;
  warnings: string[];
}

/**
 * fieldValidation of the unknown and duplicate fields a decode found: Strict fails with
 * transformDecodeError's wording (the kind and version, then the decoder's error), Warn returns
 * them as warnings, Ignore drops them.
 */
function strictDecoding(
  def: ResourceDef,
  fv: FieldValidation,
  unknownFields: readonly string[],
  duplicates: readonly string[],
  duplicatesFirst = false,
): string[] {
  const unknown = unknownFields.map(unknownFieldMessage);
  const dups = duplicates.map((d) => (d.startsWith("yaml:") ? d : `duplicate field ${JSON.stringify(d)}`));
  // Unstructured decoding (custom resources) reports the JSON decoder's duplicates before pruning's unknown fields.
  const strict = duplicatesFirst ? [...dups, ...unknown] : [...unknown, ...dups];
  if (strict.length > 0 && fv === "Strict") {
    throw StatusError.badRequest(
      `${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: strict decoding error: ${strict.join(", ")}`,
    );
  }
  return fv === "Warn" ? strict : [];
}

/**
 * Decodes an already parsed value for `def`: type meta check, schema, field validation, defaults.
 * Used for request bodies and for the result of a patch.
 */
export function decodeValue(
  def: ResourceDef,
  value: unknown,
  fv: FieldValidation,
  duplicates: readonly string[] = [],
  opts: DecodeOptions = {},
): Decoded {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw StatusError.badRequest(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${typeName(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const raw = value as Record<string, unknown>;
  def.retypeInts?.(raw);
  const want = apiVersionOf(def);
  if (raw["apiVersion"] !== undefined && raw["apiVersion"] !== "" && raw["apiVersion"] !== want) {
    throw StatusError.badRequest(
      `the API version in the data (${typeof raw["apiVersion"] === "string" ? raw["apiVersion"] : JSON.stringify(raw["apiVersion"])}) does not match the expected API version (${want})`,
    );
  }
  // A custom object of another kind decodes (unstructured) and is the strategy's 422 (ValidateTypeMeta).
  if (raw["kind"] !== undefined && raw["kind"] !== "" && raw["kind"] !== def.kind && def.coerce === undefined) {
    throw StatusError.badRequest(
      `the kind in the data (${typeof raw["kind"] === "string" ? raw["kind"] : JSON.stringify(raw["kind"])}) does not match the expected kind (${def.kind})`,
    );
  }
  const warnings: string[] = [];
  let obj: Record<string, unknown>;
  checkGoTypes(def, raw, opts);
  if (def.schema !== undefined) {
    const r = decodeObject(
      def.schema as Parameters<typeof decodeObject>[0],
      { ...raw, apiVersion: want, kind: def.kind },
      { owned: opts.owned === true },
    );
    warnings.push(...strictDecoding(def, fv, r.unknownFields, duplicates));
    if (!r.ok) throw StatusError.badRequest(zodMessage(def.kind, def.version, raw, r.error));
    obj = r.value as Record<string, unknown>;
    if (opts.detached !== undefined) reattachLargeMaps(obj, opts.detached);
  } else {
    // Custom resources keep nulls for their schema to judge; the coercer prunes (unstructuredSchemaCoercer).
    obj = def.coerce !== undefined ? (opts.owned === true ? raw : structuredClone(raw)) : dropNulls(raw);
    if (def.coerce !== undefined)
      warnings.push(...strictDecoding(def, fv, def.coerce(obj, { keepNulls: opts.keepNulls === true }), duplicates, true));
    // Kinds without a schema (Lease) still have a typed ObjectMeta: Go's decoder rejects
    // `metadata.name: 5` or `labels: "x"`, and validation would otherwise crash on them (500).
    if (def.coerce !== undefined) customResourceMetadataTypes(def, obj["metadata"]);
    const m = safeParseCompiled(ObjectMetaSchema, obj["metadata"] ?? {});
    if (!m.success)
      throw StatusError.badRequest(
        zodMessage(def.kind, def.version, raw, { issues: m.error.issues.map((i) => ({ ...i, path: ["metadata", ...i.path] })) }),
      );
  }
  if (obj["metadata"] === undefined || typeof obj["metadata"] !== "object" || obj["metadata"] === null) obj["metadata"] = {};
  normaliseTimes(obj["metadata"] as Record<string, unknown>);
  const out = { apiVersion: want, kind: def.kind, ...obj } as KubeObject;
  def.strategy.defaults?.(out);
  return { obj: out, warnings };
}

/** Decodes a create/update request body. */
export function decodeBody(def: ResourceDef, body: Buffer, format: BodyFormat, fv: FieldValidation): Decoded {
  const duplicates: string[] = [];
  const text = bodyText(body, format);
  return decodeParsed(def, format, fv, parseRequestBody(def, body, text, format, duplicates), duplicates, text);
}

/**
 * decodeBody with a turn of the event loop between parsing and decoding when `budget` says so:
 * each takes long for a near-limit body, and others run in between.
 */
export async function decodeBodyInTurns(
  def: ResourceDef,
  body: Buffer,
  format: BodyFormat,
  fv: FieldValidation,
  budget: TurnBudget,
): Promise<Decoded> {
  const duplicates: string[] = [];
  const text = bodyText(body, format);
  let value: unknown;
  if (format === "json") {
    // The parse is one step; counting the members it kept (against duplicate keys) is walked in turns.
    const parsed = unrecognized(def, body, () => parseJSON(text!, preservesInts(def)));
    await budget.maybeYield();
    if ((await countMembersInTurns(parsed.value, budget)) !== parsed.members) duplicates.push(...duplicateFields(text!));
    value = parsed.value;
  } else value = parseRequestBody(def, body, text, format, duplicates);
  await budget.maybeYield();
  const detached = await detachLargeMaps(def.schema, value, budget);
  await budget.maybeYield();
  return decodeParsed(def, format, fv, value, duplicates, text, detached);
}

/** The body decoded from UTF-8 once: the parse and the number literals of a type error read the same text. */
function bodyText(body: Buffer, format: BodyFormat): string | undefined {
  return format === "protobuf" ? undefined : body.toString("utf8");
}

function parseRequestBody(def: ResourceDef, body: Buffer, text: string | undefined, format: BodyFormat, duplicates: string[]): unknown {
  return unrecognized(def, body, () =>
    format === "protobuf" ? decodeProtobufBody(body) : parseText(text!, format, duplicates, preservesInts(def)),
  );
}

/** `parse()`, its syntax errors answered as upstream's `unrecognized` decode error (a 400 naming the kind). */
function unrecognized<T>(def: ResourceDef, body: Buffer, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof SyntaxDecodeError)) throw e;
    throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${def.kind}): ${e.message} (${summarize(body)})`);
  }
}

function decodeParsed(
  def: ResourceDef,
  format: BodyFormat,
  fv: FieldValidation,
  value: unknown,
  duplicates: string[],
  text: string | undefined,
  detached?: DetachedMaps,
): Decoded {
  // Custom resources decode into an Unstructured, which needs the body's own kind (json.Serializer.Decode's
  // NewMissingKindErr, worded by handlers.transformDecodeError); built-in kinds take the request's.
  const kind = value !== null && typeof value === "object" ? (value as Record<string, unknown>)["kind"] : undefined;
  if (def.coerce !== undefined && text !== undefined && (kind === undefined || kind === "")) {
    const detail = `Object 'Kind' is missing in '${text}' (${summarize(Buffer.from(text))})`;
    throw StatusError.badRequest(`the object provided is unrecognized (must be of type ${def.kind}): ${detail}`);
  }
  const opts: DecodeOptions = format === "json" ? { text: text!, owned: true } : { owned: true };
  if (detached !== undefined) opts.detached = detached;
  return decodeValue(def, value, fv, duplicates, opts);
}
