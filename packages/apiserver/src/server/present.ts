/** Turning stored objects into responses: type meta per version, lists, Tables, partial metadata. */
import type { KubeObject, ListResult } from "../storage/index.ts";
import type { EncodedObjectCache } from "./encoded-cache.ts";
import type { StreamedList } from "./list-stream.ts";
import type { OutputFormat } from "./negotiation.ts";
import { buildTable, type TableOptions } from "./table.ts";
import { goFieldOrder } from "./go-order.ts";
import { goRootType } from "./go-structs/index.ts";
import { jsonWithLargeMaps } from "./large-maps.ts";
import type { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { apiVersionOf, type ResourceDef } from "./resources.ts";

/** The object as this version serves it, its fields in Go's order (`kind`, `apiVersion`, metadata, ...). */
export function present(def: ResourceDef, obj: KubeObject): KubeObject {
  const go = goRootType(def.group, def.version, def.kind);
  if (def.toVersion) return goFieldOrder(def.schema, def.toVersion(obj), go);
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return goFieldOrder(def.schema, { kind: def.kind, apiVersion: apiVersionOf(def), ...rest }, go);
}

function listMeta(r: Pick<ListResult, "resourceVersion" | "continue" | "remainingItemCount">): Record<string, unknown> {
  return {
    resourceVersion: r.resourceVersion,
    ...(r.continue ? { continue: r.continue } : {}),
    ...(r.remainingItemCount !== undefined && r.continue ? { remainingItemCount: r.remainingItemCount } : {}),
  };
}

function partial(obj: KubeObject): unknown {
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: obj.metadata };
}

export function tableOptions(query: URLSearchParams): TableOptions {
  const inc = query.get("includeObject");
  return { includeObject: inc === "None" || inc === "Object" ? inc : "Metadata" };
}

/** A single object in the negotiated representation. */
export function renderObject(def: ResourceDef, obj: KubeObject, format: OutputFormat, query: URLSearchParams): unknown {
  if (format === "table")
    return buildTable(
      def.printer,
      [obj],
      { resourceVersion: obj.metadata.resourceVersion ?? "" },
      { ...tableOptions(query), present: (x) => present(def, x) },
    );
  const o = present(def, obj);
  if (format === "partial") return partial(o);
  return o;
}

/** A list in the negotiated representation. */
export function renderList(def: ResourceDef, r: ListResult, format: OutputFormat, query: URLSearchParams): unknown {
  if (format === "table") return buildTable(def.printer, r.items, listMeta(r), { ...tableOptions(query), present: (x) => present(def, x) });
  const s = streamedList(def, r, format === "partial" ? "partial" : "json");
  return { ...s.head, items: r.items.map((o) => s.encodeItem(o)) };
}

/** One identity per (resource definition, format): the encoder an EncodedObjectCache keys by. */
const encoders = new WeakMap<ResourceDef, Record<"json" | "partial", object>>();

function encoderOf(def: ResourceDef, format: "json" | "partial"): object {
  let e = encoders.get(def);
  if (e === undefined) encoders.set(def, (e = { json: {}, partial: {} }));
  return e[format];
}

/**
 * `JSON.stringify(present(def, obj))` for an object as stored at its resourceVersion, through the
 * resource's encoded-object cache: one encoding per object version for the LIST items, GETs, write
 * answers and watch events that carry it (cacher's cachingObject).
 */
export function objectJSON(def: ResourceDef, obj: KubeObject, cache: EncodedObjectCache): string {
  return cache.encode(encoderOf(def, "json"), obj, (o) => present(def, o));
}

/**
 * `objectJSON`, giving the event loop turns while the large labels and annotations of a
 * near-limit object are written (server/large-maps.ts): a write's answer and a GET.
 */
export function objectJSONInTurns(def: ResourceDef, obj: KubeObject, cache: EncodedObjectCache, budget: TurnBudget): Promise<string> {
  return cache.encodeInTurns(encoderOf(def, "json"), obj, (o) => jsonWithLargeMaps(o, (x) => present(def, x), budget));
}

/**
 * A JSON or partial-metadata list as its fields and an item encoder, for list-stream.ts; with
 * `cache` (the resource's, holding items as read from storage) each item version is encoded once.
 */
export function streamedList(
  def: ResourceDef,
  r: ListResult,
  format: "json" | "partial",
  cache?: EncodedObjectCache,
): StreamedList<KubeObject> {
  const encodeItem = format === "partial" ? (o: KubeObject) => partial(present(def, o)) : (o: KubeObject) => present(def, o);
  const head =
    format === "partial"
      ? { kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: listMeta(r) }
      : { kind: def.listKind ?? `${def.kind}List`, apiVersion: apiVersionOf(def), metadata: listMeta(r) };
  if (cache === undefined) return { head, items: r.items, encodeItem };
  const encoder = encoderOf(def, format);
  return { head, items: r.items, encodeItem, itemJSON: (o) => cache.encode(encoder, o, encodeItem) };
}
