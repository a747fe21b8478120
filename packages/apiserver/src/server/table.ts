/**
 * The Table response (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`): the kind's
 * @servicenet/printers handler generates it with Wide as pkg/printers/storage/storage.go's
 * TableConvertor does (kubectl hides the priority-1 columns itself); which object each row
 * carries follows `includeObject` (endpoints/handlers/response.go asTable, default Metadata).
 * Cells come from the stored object, as upstream prints the internal object whatever version is
 * served (events.k8s.io/v1 Events print like core/v1 ones); `includeObject=Object` rows carry the
 * object as the requested version presents it.
 */
import type { Table } from "@servicenet/api";
import { generateTable, type IncludeObject, type TableHandler } from "@servicenet/printers";
import type { KubeObject } from "../storage/index.ts";

export interface TableOptions {
  /** `includeObject`: None, Metadata (default) or Object. */
  includeObject?: IncludeObject;
  /** Omit column definitions (watch events after the first). */
  noHeaders?: boolean;
  now?: Date;
  /** The stored object as the requested version serves it (the `includeObject=Object` row object). */
  present?: (obj: KubeObject) => KubeObject;
}

/** One row per object; list metadata as given. */
export function buildTable(
  handler: TableHandler<KubeObject>,
  objs: readonly KubeObject[],
  listMeta: Record<string, unknown>,
  opts: TableOptions = {},
): Table {
  const includeObject = opts.includeObject ?? "Metadata";
  const table = generateTable(handler, objs, { wide: true, includeObject, noHeaders: opts.noHeaders, now: opts.now, listMeta });
  const present = opts.present;
  if (includeObject === "Object" && present !== undefined) table.rows.forEach((row, i) => (row.object = present(objs[i] as KubeObject)));
  return table;
}
