/** The Go and apimachinery string helpers the printers' cells depend on. */

/** Go's string comparison (bytewise on UTF-8, which is code-point order), for sort.Strings. */
export function compareGo(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/**
 * apimachinery pkg/labels FormatLabels: "k=v" pairs joined by ","; "<none>" when empty. Go sorts
 * the joined "k=v" strings, not the keys, so "a.b=1" comes before "a=2".
 */
export function formatLabels(labels: Readonly<Record<string, string>> | null | undefined): string {
  const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
  if (pairs.length === 0) return "<none>";
  return pairs.sort(compareGo).join(",");
}

/** Go's net.JoinHostPort: brackets hosts that contain a colon (IPv6). */
export function joinHostPort(host: string, port: string | number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
