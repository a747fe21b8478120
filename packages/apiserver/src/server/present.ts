/** Turning stored objects into responses: type meta per version, lists, Tables, partial metadata. */
import type { KubeObject, ListResult } from "../storage/index.ts";
import type { StreamedList } from "./list-stream.ts";
import type { OutputFormat } from "./negotiation.ts";
import { buildTable, type TableOptions } from "./table.ts";
import { goFieldOrder } from "./go-order.ts";
import { apiVersionOf, type ResourceDef } from "./resources.ts";

/** The object as this version serves it, its fields in Go's order (`kind`, `apiVersion`, metadata, ...). */
export function present(def: ResourceDef, obj: KubeObject): KubeObject {
  if (def.toVersion) return goFieldOrder(def.schema, def.toVersion(obj));
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return goFieldOrder(def.schema, { kind: def.kind, apiVersion: apiVersionOf(def), ...rest });
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

/** A JSON or partial-metadata list as its fields and an item encoder, for list-stream.ts. */
export function streamedList(def: ResourceDef, r: ListResult, format: "json" | "partial"): StreamedList<KubeObject> {
  if (format === "partial")
    return {
      head: { kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: listMeta(r) },
      items: r.items,
      encodeItem: (o) => partial(present(def, o)),
    };
  return {
    head: { kind: def.listKind ?? `${def.kind}List`, apiVersion: apiVersionOf(def), metadata: listMeta(r) },
    items: r.items,
    encodeItem: (o) => present(def, o),
  };
}
