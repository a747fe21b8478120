/**
 * metav1.Time's text: RFC 3339 with second precision. Creates and updates stamp several times per
 * request and the text only changes once a second, so the last one is remembered (formatting a
 * Date and the regexp cost more than the rest of a create's metadata).
 */
let lastSecond = NaN;
let lastText = "";

/** `now` as RFC 3339 with second precision (`2026-12-02T18:00:00Z`). */
export function formatRFC3339(now: Date = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    lastSecond = second;
  }
  return lastText;
}
