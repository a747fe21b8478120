/** Turning stored objects into responses: type meta per version, lists, Tables, partial metadata. */
import type { KubeObject, ListResult } from "../storage/index.ts";
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
  const items = r.items.map((o) => present(def, o));
  if (format === "partial")
    return { kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1", metadata: listMeta(r), items: items.map(partial) };
  return { kind: def.listKind ?? `${def.kind}List`, apiVersion: apiVersionOf(def), metadata: listMeta(r), items };
}
