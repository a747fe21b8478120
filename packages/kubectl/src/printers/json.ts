/**
 * kubectl's JSON printer (cli-runtime printers/json.go JSONPrinter): Go's encoding/json writes
 * map keys sorted and kubectl indents by 4 spaces, with a trailing newline.
 */

/** Go's encoding/json writes map keys sorted (byte order); kubectl's objects are maps. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

/** The text `-o json` prints for `value`. */
export function toKubectlJSON(value: unknown): string {
  return JSON.stringify(value, null, 4) + "\n";
}
