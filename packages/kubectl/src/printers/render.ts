/**
 * Prints a meta.k8s.io/v1 Table the way kubectl's human-readable printer does
 * (cli-runtime printers/tableprinter.go on GetNewTabWriter): uppercase headers,
 * priority>0 columns only with wide, cells cut at the first newline with "...",
 * columns padded to the widest cell + 3, the last column unpadded.
 */
import type { KubeObject } from "../types.ts";
import { TabWriter, getTabWriterOptions } from "../util/tabwriter.ts";
import { escapeTerminal, formatLabels } from "../util/strings.ts";
import type { Table } from "./table.ts";

export interface RenderOptions {
  /** -o wide: show priority>0 columns. */
  wide?: boolean;
  /** --no-headers. */
  noHeaders?: boolean;
  /** -A: a NAMESPACE column taken from each row's object. */
  withNamespace?: boolean;
  /** --show-labels: a LABELS column. */
  showLabels?: boolean;
}

/** Go's fmt.Sprint of a JSON-decoded cell. */
function cellString(cell: unknown): string {
  if (typeof cell === "string") {
    const brk = cell.search(/[\f\n\r]/);
    return brk >= 0 ? escapeTerminal(cell.slice(0, brk)) + "..." : escapeTerminal(cell);
  }
  if (cell === null || cell === undefined) return "<nil>";
  if (typeof cell === "object") return escapeTerminal(JSON.stringify(cell));
  return escapeTerminal(String(cell));
}

/** renderTable: the text `kubectl get` prints for a server-side Table. */
export function renderTable(table: Table, opts: RenderOptions = {}): string {
  const tw = new TabWriter(getTabWriterOptions);
  const columns = table.columnDefinitions;
  const shown = (i: number): boolean => opts.wide === true || (columns[i]?.priority ?? 0) === 0;
  if (opts.noHeaders !== true) {
    const headers: string[] = [];
    if (opts.withNamespace) headers.push("NAMESPACE");
    columns.forEach((c, i) => {
      if (shown(i)) headers.push(c.name.toUpperCase());
    });
    if (opts.showLabels) headers.push("LABELS");
    tw.write(headers.join("\t") + "\n");
  }
  for (const row of table.rows) {
    const meta = (row.object as KubeObject | undefined)?.metadata;
    const parts: string[] = [];
    if (opts.withNamespace) parts.push(escapeTerminal(meta?.namespace ?? ""));
    // Cells beyond the column definitions are ignored (https://issue.k8s.io/66379).
    row.cells.forEach((cell, i) => {
      if (i < columns.length && shown(i)) parts.push(cellString(cell));
    });
    if (opts.showLabels) parts.push(formatLabels(meta?.labels));
    tw.write(parts.join("\t") + "\n");
  }
  tw.flush();
  return tw.output();
}
