/** Times on the wire: RFC 3339 at second precision, as metav1.Time marshals. */

/** `ms` (epoch milliseconds) as metav1.Time's JSON, e.g. `2026-01-01T00:00:00Z`. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `ms` as metav1.MicroTime's JSON (six fractional digits), e.g. a Lease's renewTime. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
