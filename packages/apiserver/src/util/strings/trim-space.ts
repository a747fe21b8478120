/**
 * Go's strings.TrimSpace for HTTP header values: node hands a header value over as latin1 (one
 * char per byte), so JavaScript's trim would strip a lone 0xA0 byte as U+00A0, which Go keeps.
 */

/**
 * Go's unicode.IsSpace runes as UTF-8 byte sequences, matched on a header value as node gives it
 * (one char per byte, latin1). UTF-8 is self-synchronising, so matching these at either end trims
 * exactly what Go's strings.TrimSpace trims from the raw bytes: a lone 0xA0 byte is invalid UTF-8
 * (RuneError, not a space) and stays, while C2 A0 (U+00A0) and C2 85 (U+0085) go.
 */
const goSpace =
  "(?:[\\t\\n\\v\\f\\r ]|\\xc2[\\x85\\xa0]|\\xe1\\x9a\\x80|\\xe2\\x80[\\x80-\\x8a\\xa8\\xa9\\xaf]|\\xe2\\x81\\x9f|\\xe3\\x80\\x80)";
const leadingSpace = new RegExp(`^${goSpace}+`);
const trailingSpace = new RegExp(`${goSpace}+$`);

/** Go's strings.TrimSpace over a header value's bytes (a latin1 string). */
export function trimHeaderSpace(value: string): string {
  return value.replace(leadingSpace, "").replace(trailingSpace, "");
}
