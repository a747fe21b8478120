/**
 * The Table response (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`): the kind's
 * @servicenet/printers handler generates it with Wide as pkg/printers/storage/storage.go's
 * TableConvertor does (kubectl hides the priority-1 columns itself); which object each row
 * carries follows `includeObject` (endpoints/handlers/response.go asTable, default Metadata).
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
}

/** One row per object; list metadata as given. */
export function buildTable(handler: TableHandler<KubeObject>, objs: readonly KubeObject[], listMeta: Record<string, unknown>, opts: TableOptions = {}): Table {
  return generateTable(handler, objs, { wide: true, includeObject: opts.includeObject ?? "Metadata", noHeaders: opts.noHeaders, now: opts.now, listMeta });
}
