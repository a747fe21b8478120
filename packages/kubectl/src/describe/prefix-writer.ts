/**
 * describe.go's PrefixWriter over a Go-compatible tabwriter, and tabbedString.
 * Callers pass already-formatted text (Go's Sprintf with literal formats).
 */
import { TabWriter, describeTabWriterOptions } from "@servicenet/printers/tabwriter";
import { escapeTerminal } from "../util/strings.ts";

export const LEVEL_0 = 0;
export const LEVEL_1 = 1;
export const LEVEL_2 = 2;
export const LEVEL_3 = 3;

export interface PrefixWriter {
  /** Writes text indented by two spaces per level, terminal-escaped. */
  write(level: number, text: string): void;
  /** fmt.Sprintln of the parts (space-joined, newline-terminated), no indentation. */
  writeLine(...parts: string[]): void;
  /** Lays out what is buffered so later lines align independently. */
  flush(): void;
}

class TabPrefixWriter implements PrefixWriter {
  private readonly tw: TabWriter;
  constructor(tw: TabWriter) {
    this.tw = tw;
  }
  write(level: number, text: string): void {
    this.tw.write(escapeTerminal("  ".repeat(level) + text));
  }
  writeLine(...parts: string[]): void {
    this.tw.write(escapeTerminal(parts.join(" ") + "\n"));
  }
  flush(): void {
    this.tw.flush();
  }
}

/** tabbedString: runs `body` against a PrefixWriter on `tabwriter(0, 8, 2, ' ', 0)`. */
export function tabbedString(body: (w: PrefixWriter) => void): string {
  const tw = new TabWriter(describeTabWriterOptions);
  body(new TabPrefixWriter(tw));
  tw.flush();
  return tw.output();
}
