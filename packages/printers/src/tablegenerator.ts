/**
 * pkg/printers/tablegenerator.go: a TableHandler is a kind's column definitions and row printer;
 * generateTable turns objects into a meta.k8s.io/v1 Table. The apiserver's TableConvertor
 * (pkg/printers/storage/storage.go) generates with `wide: true` and lets the client hide columns.
 */
import type { ListMeta, PartialObjectMetadata, Table, TableColumnDefinition, TableRow, TableRowCondition } from "@servicenet/api";

/** printers.GenerateOptions, plus the clock AGE cells are computed against. */
export interface GenerateOptions {
  /** Emit the priority-1 columns and cells too (`-o wide`). */
  wide?: boolean;
  /** Leave the column definitions out (watch events after the first, `TableOptions.NoHeaders`). */
  noHeaders?: boolean;
  /** The clock for AGE cells; defaults to now. */
  now?: Date;
}

/** What generateTable puts into each row's `object`, as TableOptions.includeObject selects it. */
export type IncludeObject = "None" | "Metadata" | "Object";

export interface PrintOptions extends GenerateOptions {
  /**
   * None drops row objects, Metadata embeds PartialObjectMetadata (the apiserver's default,
   * endpoints/handlers/response.go asTable), Object (the default here) the object itself.
   */
  includeObject?: IncludeObject;
  /** ListMeta to copy into the Table. */
  listMeta?: ListMeta;
}

/** The row printer's view of the options, with the clock resolved. */
export interface RowOptions {
  wide: boolean;
  now: Date;
}

/** One kind's printer (HumanReadablePrinter.TableHandler's columns and print function). */
export interface TableHandler<T> {
  readonly columnDefinitions: readonly TableColumnDefinition[];
  /** One row's cells in column order; the priority-1 cells only when `wide`. */
  printRow(obj: T, options: RowOptions): unknown[];
  /** The row's conditions (metav1.TableRowCondition), for the kinds whose printer sets them. */
  rowConditions?(obj: T): TableRowCondition[] | undefined;
}

/** A column definition with upstream's defaults (type string, format "", priority 0). */
export function column(name: string, description: string, extra: Partial<TableColumnDefinition> = {}): TableColumnDefinition {
  return { name, type: "string", format: "", description, priority: 0, ...extra };
}

/** metav1.ObjectMeta{}.SwaggerDoc()["name"], the Name column of every kind. */
export const nameDescription =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
/** metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"], the Age column of every kind. */
export const creationTimestampDescription =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

export const nameColumn = (): TableColumnDefinition => column("Name", nameDescription, { format: "name" });
export const ageColumn = (): TableColumnDefinition => column("Age", creationTimestampDescription);

function rowObject(obj: PartialObjectMetadata, mode: IncludeObject): unknown {
  if (mode === "None") return undefined;
  if (mode === "Object") return obj;
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: obj.metadata };
}

/**
 * GenerateTable: one row per object; without `wide` the priority-1 columns are dropped (the
 * rows then carry only the priority-0 cells), with `noHeaders` all column definitions are.
 */
export function generateTable<T extends PartialObjectMetadata>(
  handler: TableHandler<T>,
  items: readonly T[],
  opts: PrintOptions = {},
): Table {
  const rowOpts: RowOptions = { wide: opts.wide ?? false, now: opts.now ?? new Date() };
  const mode = opts.includeObject ?? "Object";
  const rows = items.map((item): TableRow => {
    const row: TableRow = { cells: handler.printRow(item, rowOpts) };
    const conditions = handler.rowConditions?.(item);
    if (conditions !== undefined) row.conditions = conditions;
    const object = rowObject(item, mode);
    if (object !== undefined) row.object = object;
    return row;
  });
  let columnDefinitions: TableColumnDefinition[] = [];
  if (opts.noHeaders !== true) {
    columnDefinitions = handler.columnDefinitions.filter((c) => rowOpts.wide || c.priority === 0);
  }
  return { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: { ...opts.listMeta }, columnDefinitions, rows };
}
