/** Small Go/Kubernetes string helpers kubectl output depends on. */

/** cli-runtime printers.WriteEscaped: ESC becomes "^[" and CR becomes "\r" literally. */
export function escapeTerminal(s: string): string {
  return s.replaceAll("\x1b", "^[").replaceAll("\r", "\\r");
}

/**
 * labels.FormatLabels: "k=v" pairs joined by ","; "<none>" when empty. Go sorts
 * the joined "k=v" strings, not the keys, so "a.b=1" comes before "a=2".
 */
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
  if (pairs.length === 0) return "<none>";
  return pairs.sort(compareGo).join(",");
}

/** Go's string comparison (bytewise on UTF-8; equal to code-point order). */
export function compareGo(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** net.JoinHostPort: brackets hosts that contain a colon (IPv6). */
export function joinHostPort(host: string, port: string | number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Length in bytes, as Go's len(string). */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** s[:n] in Go terms (bytes). */
export function byteSlice(s: string, n: number): string {
  return Buffer.from(s, "utf8").subarray(0, n).toString("utf8");
}
