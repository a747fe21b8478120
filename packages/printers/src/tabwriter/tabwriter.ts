/**
 * A port of Go's text/tabwriter (the subset kubectl uses: padchar ' ', no
 * flags), because kubectl's describe and get output are laid out by it and
 * byte-identical output needs its exact column-block algorithm: a column's
 * width is decided per block of consecutive lines that have a cell in that
 * column, and the last cell of a line (the text before '\n') is never padded.
 */

interface Cell {
  text: string;
  /** Width in runes (Go counts utf8.RuneCount). */
  width: number;
  /** Terminated by '\t' (as opposed to '\v' or the line end). */
  htab: boolean;
}

export interface TabWriterOptions {
  minwidth: number;
  tabwidth: number;
  padding: number;
  padchar: string;
  /**
   * liggitt/tabwriter's RememberWidths (cli-runtime's GetNewTabWriter sets
   * it): a column never gets narrower than it was in an earlier block or
   * flush, which keeps `get -w` rows aligned with the rows printed before.
   */
  rememberWidths?: boolean;
}

/** describe.go tabbedString: `out.Init(buf, 0, 8, 2, ' ', 0)`. */
export const describeTabWriterOptions: TabWriterOptions = { minwidth: 0, tabwidth: 8, padding: 2, padchar: " " };
/** cli-runtime printers.GetNewTabWriter: minwidth 6, tabwidth 4, padding 3, ' '. */
export const getTabWriterOptions: TabWriterOptions = { minwidth: 6, tabwidth: 4, padding: 3, padchar: " ", rememberWidths: true };

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Buffers text like Go's tabwriter.Writer; `flush()` lays out what is buffered. */
export class TabWriter {
  private readonly opts: TabWriterOptions;
  private out = "";
  private lines: Cell[][] = [[]];
  private cell = "";
  private widths: number[] = [];
  private maxwidths: number[] = [];

  constructor(opts: TabWriterOptions = describeTabWriterOptions) {
    this.opts = opts;
  }

  /** Writes text; cells end at '\t' or '\v', lines at '\n' or '\f'. */
  write(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== "\t" && ch !== "\v" && ch !== "\n" && ch !== "\f") continue;
      this.cell += text.slice(start, i);
      start = i + 1;
      const ncells = this.terminateCell(ch === "\t");
      if (ch === "\n" || ch === "\f") {
        this.lines.push([]);
        // Go flushes when a line has a single cell: it cannot affect later columns.
        if (ch === "\f" || ncells === 1) this.flushInternal();
      }
    }
    this.cell += text.slice(start);
  }

  /** Formats buffered lines (as Go's Flush) and returns everything written so far. */
  flush(): void {
    this.flushInternal();
  }

  /** The formatted output produced by flushes so far. */
  output(): string {
    return this.out;
  }

  /** Returns the output flushed so far and forgets it (for streaming, as `get -w` writes each flush). */
  take(): string {
    const out = this.out;
    this.out = "";
    return out;
  }

  private terminateCell(htab: boolean): number {
    const line = this.lines[this.lines.length - 1] as Cell[];
    line.push({ text: this.cell, width: runeCount(this.cell), htab });
    this.cell = "";
    return line.length;
  }

  private flushInternal(): void {
    if (this.cell.length > 0) this.terminateCell(false);
    this.format(0, this.lines.length);
    this.lines = [[]];
    this.cell = "";
    this.widths = [];
  }

  private format(line0: number, line1: number): void {
    const column = this.widths.length;
    for (let t = line0; t < line1; t++) {
      const line = this.lines[t] as Cell[];
      if (column >= line.length - 1) continue;
      // A cell exists in this column: print the lines before the block, then size the block.
      this.writeLines(line0, t);
      line0 = t;
      let width = this.opts.minwidth;
      for (; t < line1; t++) {
        const l = this.lines[t] as Cell[];
        if (column >= l.length - 1) break;
        const w = (l[column] as Cell).width + this.opts.padding;
        if (w > width) width = w;
      }
      if (this.opts.rememberWidths === true) width = this.remember(width);
      this.widths.push(width);
      this.format(line0, t);
      this.widths.pop();
      // Go's loop increment then skips line t, which cannot start a block in this column.
      line0 = t;
    }
    this.writeLines(line0, line1);
  }

  /** The RememberWidths switch of liggitt/tabwriter's format, for the current column. */
  private remember(width: number): number {
    const column = this.widths.length;
    if (this.maxwidths.length < column) this.maxwidths.push(...this.widths.slice(this.maxwidths.length));
    const prev = this.maxwidths[column];
    if (prev === undefined) this.maxwidths.push(width);
    else if (prev > width) return prev;
    else this.maxwidths[column] = width;
    return width;
  }

  private writeLines(line0: number, line1: number): void {
    for (let i = line0; i < line1; i++) {
      const line = this.lines[i] as Cell[];
      line.forEach((c, j) => {
        this.out += c.text;
        const cellw = this.widths[j];
        if (cellw !== undefined) this.out += this.opts.padchar.repeat(Math.max(0, cellw - c.width));
      });
      // The last buffered line has no newline of its own.
      if (i + 1 < this.lines.length) this.out += "\n";
    }
  }
}
