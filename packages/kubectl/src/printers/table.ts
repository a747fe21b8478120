/**
 * meta.k8s.io/v1 Table building blocks, shaped as the apiserver returns them
 * for `Accept: application/json;as=Table;g=meta.k8s.io;v=v1`.
 */
import type { KubeObject } from "../types.ts";

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: "Table";
  apiVersion: "meta.k8s.io/v1";
  metadata: { resourceVersion?: string; continue?: string };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

/** Options every table builder takes. */
export interface PrintOptions {
  /**
   * Emit the priority-1 cells too. The apiserver's TableConvertor always
   * generates with Wide=true and lets the client hide columns, so servers
   * should pass true.
   */
  wide?: boolean;
  /** The clock for AGE cells. */
  now?: Date;
  /** includeObject=None drops row objects; the default embeds the full object. */
  includeObject?: "None" | "Object";
  /** ListMeta to copy into the table. */
  listMeta?: { resourceVersion?: string; continue?: string };
}

/** ObjectMeta swagger docs used by every kind's Name and Age columns. */
export const nameDescription =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
export const creationTimestampDescription =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** A column definition with upstream's defaults (format "", priority 0). */
export function column(name: string, description: string, extra: Partial<TableColumnDefinition> = {}): TableColumnDefinition {
  return { name, type: "string", format: "", description, priority: 0, ...extra };
}

export const nameColumn = (): TableColumnDefinition => column("Name", nameDescription, { format: "name" });
export const ageColumn = (): TableColumnDefinition => column("Age", creationTimestampDescription);

/** Builds a Table from column definitions and one cells-producer per object. */
export function buildTable<T extends KubeObject>(
  columns: TableColumnDefinition[],
  items: readonly T[],
  cells: (item: T, wide: boolean, now: Date) => unknown[],
  opts: PrintOptions,
): Table {
  const now = opts.now ?? new Date();
  const wide = opts.wide ?? false;
  const rows = items.map((item): TableRow => {
    const row: TableRow = { cells: cells(item, wide, now) };
    if (opts.includeObject !== "None") row.object = item;
    return row;
  });
  return { kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: { ...opts.listMeta }, columnDefinitions: columns, rows };
}
