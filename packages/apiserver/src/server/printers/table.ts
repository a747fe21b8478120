/** Builds meta.k8s.io/v1 Tables (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`). */
import type { Table, TableRow } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";
import { defaultPrinter, type TablePrinter } from "./columns.ts";

export interface TableOptions {
  /** `includeObject`: None, Metadata (default) or Object. */
  includeObject?: "None" | "Metadata" | "Object";
  /** Omit column definitions (watch events after the first). */
  noHeaders?: boolean;
  now?: Date;
}

function rowObject(obj: KubeObject, mode: TableOptions["includeObject"]): unknown {
  if (mode === "None") return undefined;
  if (mode === "Object") return obj;
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: obj.metadata };
}

/** One row per object; list metadata as given. */
export function buildTable(printer: TablePrinter | undefined, objs: readonly KubeObject[], listMeta: Record<string, unknown>, opts: TableOptions = {}): Table {
  const p = printer ?? defaultPrinter;
  const now = opts.now ?? new Date();
  const rows: TableRow[] = objs.map((o) => {
    const row: TableRow = { cells: p.cells(o, now) };
    const ob = rowObject(o, opts.includeObject);
    if (ob !== undefined) row.object = ob;
    return row;
  });
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta,
    columnDefinitions: opts.noHeaders ? [] : p.columns,
    rows,
  };
}
