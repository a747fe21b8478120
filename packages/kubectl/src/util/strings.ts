/** Small Go string helpers kubectl output depends on (formatLabels, joinHostPort: @servicenet/printers). */

/** cli-runtime printers.WriteEscaped: ESC becomes "^[" and CR becomes "\r" literally. */
export function escapeTerminal(s: string): string {
  return s.replaceAll("\x1b", "^[").replaceAll("\r", "\\r");
}

/** Length in bytes, as Go's len(string). */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/**
 * s[:n] in Go terms (bytes). When the cut splits a character, Go keeps the leading bytes of
 * it (invalid UTF-8); they are carried here as lone surrogates U+DC80..U+DCFF (the
 * "surrogateescape" convention) so that encodeGoString can write those exact bytes.
 */
export function byteSlice(s: string, n: number): string {
  const bytes = Buffer.from(s, "utf8");
  if (n >= bytes.length) return s;
  let end = n;
  // Back up to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  const whole = bytes.subarray(0, end).toString("utf8");
  const partial = [...bytes.subarray(end, n)].map((b) => String.fromCharCode(0xdc00 + b)).join("");
  return whole + partial;
}

/** UTF-8 bytes of `s`, with byteSlice's escaped bytes (lone U+DC80..U+DCFF) written raw, as Go would. */
export function encodeGoString(s: string): Buffer {
  const parts = s.split(/([\udc80-\udcff])/u);
  return Buffer.concat(parts.map((p, i) => (i % 2 === 1 ? Buffer.from([(p.charCodeAt(0) - 0xdc00) & 0xff]) : Buffer.from(p, "utf8"))));
}

/**
 * Go's unicode.IsSpace: the Latin-1 spaces (incl. U+0085 NEL and U+00A0) and the
 * Unicode White_Space property. Unlike JavaScript's trim, U+FEFF (BOM) is not a space.
 */
const goSpace = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;

/** Go's strings.TrimSpace. */
export function goTrimSpace(s: string): string {
  const chars = [...s];
  let start = 0;
  let end = chars.length;
  while (start < end && goSpace.test(chars[start] ?? "")) start++;
  while (end > start && goSpace.test(chars[end - 1] ?? "")) end--;
  return chars.slice(start, end).join("");
}
