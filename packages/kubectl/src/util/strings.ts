/** Small Go string helpers kubectl output depends on (formatLabels, joinHostPort: @servicenet/printers). */

/** cli-runtime printers.WriteEscaped: ESC becomes "^[" and CR becomes "\r" literally. */
export function escapeTerminal(s: string): string {
  return s.replaceAll("\x1b", "^[").replaceAll("\r", "\\r");
}

/** Length in bytes, as Go's len(string). */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** s[:n] in Go terms (bytes). */
export function byteSlice(s: string, n: number): string {
  return Buffer.from(s, "utf8").subarray(0, n).toString("utf8");
}
