/**
 * encoding/base64's StdEncoding.Decode error, as encoding/json reports a bad `[]byte` value:
 * `illegal base64 data at input byte N` (a base64.CorruptInputError). Padding is required, CR
 * and LF are skipped anywhere, and non-zero trailing bits are accepted (the encoding is not Strict).
 */

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const isNewline = (c: string | undefined): boolean => c === "\n" || c === "\r";
const corrupt = (at: number): string => `illegal base64 data at input byte ${at}`;

/** One quantum of Go's `decodeQuantum`: the error, or where the next quantum starts (-1 at the end). */
function quantum(s: string, start: number): { next: number } | { error: string } {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === s.length) {
      if (j === 0) return { next: -1 };
      return { error: corrupt(si - j) };
    }
    const c = s[si++]!;
    if (alphabet.includes(c)) continue;
    if (isNewline(c)) {
      j--;
      continue;
    }
    if (c !== "=") return { error: corrupt(si - 1) };
    // Padding: only after two or three symbols, and "==" after two.
    if (j < 2) return { error: corrupt(si - 1) };
    if (j === 2) {
      while (si < s.length && isNewline(s[si])) si++;
      if (si === s.length) return { error: corrupt(s.length) };
      if (s[si] !== "=") return { error: corrupt(si - 1) };
      si++;
    }
    while (si < s.length && isNewline(s[si])) si++;
    return si < s.length ? { error: corrupt(si) } : { next: -1 };
  }
  return { next: si };
}

/** The error Go's StdEncoding gives decoding `s`, or undefined when `s` is valid base64. */
export function base64DecodeError(s: string): string | undefined {
  for (let si = 0; si >= 0;) {
    const q = quantum(s, si);
    if ("error" in q) return q.error;
    si = q.next;
  }
  return undefined;
}
