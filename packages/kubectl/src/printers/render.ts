/**
 * Prints a meta.k8s.io/v1 Table the way kubectl's human-readable printer does
 * (cli-runtime printers/tableprinter.go on GetNewTabWriter): uppercase headers,
 * priority>0 columns only with wide, cells cut at the first newline with "...",
 * columns padded to the widest cell + 3, the last column unpadded.
 */
import type { PartialObjectMetadata, Table } from "@servicenet/api";
import { formatLabels } from "@servicenet/printers";
import { TabWriter, getTabWriterOptions } from "@servicenet/printers/tabwriter";
import { escapeTerminal } from "../util/strings.ts";

export interface RenderOptions {
  /** -o wide: show priority>0 columns. */
  wide?: boolean;
  /** --no-headers. */
  noHeaders?: boolean;
  /** -A: a NAMESPACE column taken from each row's object. */
  withNamespace?: boolean;
  /** --show-labels: a LABELS column. */
  showLabels?: boolean;
  /** `kind/` before each name, as kubectl does when one `get` prints several types ("service/web"). */
  withKind?: string;
}

/** Go's fmt.Sprint of a JSON-decoded cell. */
function cellString(cell: unknown): string {
  if (typeof cell === "string") {
    const brk = cell.search(/[\f\n\r]/);
    return brk >= 0 ? escapeTerminal(cell.slice(0, brk)) + "..." : escapeTerminal(cell);
  }
  if (cell === null || cell === undefined) return "<nil>";
  if (typeof cell === "number" || typeof cell === "boolean") return escapeTerminal(String(cell));
  return escapeTerminal(JSON.stringify(cell));
}

type Column = Table["columnDefinitions"][number];

/**
 * decorateTable (tableprinter.go): NAMESPACE before the server's columns and LABELS after them,
 * and the row's cells likewise; a row carrying more cells than its Table names columns (the
 * IPAddress rows' age) then shows its extra cell under LABELS, and the labels fall off the end,
 * as kubectl 1.33 prints them against kube-apiserver.
 */
function decoratedColumns(table: Table, opts: RenderOptions): Column[] {
  const ns: Column[] = opts.withNamespace ? [{ name: "Namespace", type: "string", format: "", description: "", priority: 0 }] : [];
  const lbl: Column[] = opts.showLabels ? [{ name: "Labels", type: "string", format: "", description: "", priority: 0 }] : [];
  return [...ns, ...table.columnDefinitions, ...lbl];
}

function decoratedCells(table: Table, row: Table["rows"][number], opts: RenderOptions): string[] {
  const meta = (row.object as PartialObjectMetadata | undefined)?.metadata;
  const nameColumn = Math.max(
    0,
    table.columnDefinitions.findIndex((c) => c.format === "name"),
  );
  const cells = row.cells.map((cell, i) =>
    opts.withKind !== undefined && i === nameColumn ? `${opts.withKind}/${cellString(cell)}` : cellString(cell),
  );
  if (opts.withNamespace) cells.unshift(escapeTerminal(meta?.namespace ?? ""));
  if (opts.showLabels) cells.push(formatLabels(meta?.labels));
  return cells;
}

function headerLine(columns: readonly Column[], shown: (c: Column) => boolean): string {
  return (
    columns
      .filter(shown)
      .map((c) => c.name.toUpperCase())
      .join("\t") + "\n"
  );
}

function rowLine(
  table: Table,
  row: Table["rows"][number],
  opts: RenderOptions,
  columns: readonly Column[],
  shown: (c: Column) => boolean,
): string {
  // printRows: cells beyond the columns are ignored (https://issue.k8s.io/66379).
  const parts = decoratedCells(table, row, opts).filter((_, i) => i < columns.length && shown(columns[i]!));
  return parts.join("\t") + "\n";
}

/**
 * kubectl's HumanReadablePrinter over one tabwriter, for several Tables in a
 * row (`get -w`): headers only once per set of column definitions, a Table
 * without column definitions (later watch events) reuses the last ones, and
 * column widths are remembered across flushes.
 */
export class TablePrinter {
  private readonly tw = new TabWriter(getTabWriterOptions);
  private readonly opts: RenderOptions;
  private lastColumns: Table["columnDefinitions"] = [];
  private printedHeaders = false;

  constructor(opts: RenderOptions = {}) {
    this.opts = opts;
  }

  /** Prints `table` and returns the text of this flush. */
  print(input: Table): string {
    let table = input;
    let noHeaders = this.opts.noHeaders === true;
    const same = JSON.stringify(table.columnDefinitions) === JSON.stringify(this.lastColumns);
    if (this.printedHeaders && (table.columnDefinitions.length === 0 || same)) noHeaders = true;
    if (table.columnDefinitions.length === 0) table = { ...table, columnDefinitions: this.lastColumns };
    else if (!same) {
      this.lastColumns = table.columnDefinitions;
      this.printedHeaders = false;
    }
    if (table.rows.length > 0) this.printedHeaders = true;
    const shown = (c: Column): boolean => this.opts.wide === true || (c.priority ?? 0) === 0;
    const columns = decoratedColumns(table, this.opts);
    // printTable prints no header for a table without rows.
    if (!noHeaders && table.rows.length > 0) this.tw.write(headerLine(columns, shown));
    for (const row of table.rows) this.tw.write(rowLine(table, row, this.opts, columns, shown));
    this.tw.flush();
    return this.tw.take();
  }
}

/** renderTable: the text `kubectl get` prints for a server-side Table. */
export function renderTable(table: Table, opts: RenderOptions = {}): string {
  const tw = new TabWriter(getTabWriterOptions);
  const shown = (c: Column): boolean => opts.wide === true || (c.priority ?? 0) === 0;
  const columns = decoratedColumns(table, opts);
  if (opts.noHeaders !== true) tw.write(headerLine(columns, shown));
  for (const row of table.rows) tw.write(rowLine(table, row, opts, columns, shown));
  tw.flush();
  return tw.output();
}
