/** Go's time.ParseDuration for flag values ("15s", "1m30s", "500ms", "1.5h"), in milliseconds (metav1.Duration flags). */

const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Go duration string; throws with Go's wording (`time: invalid duration "x"`) otherwise.
 * As in Go, "0" needs no unit and every other number does (plain "15" is an error).
 */
export function parseGoDuration(s: string): number {
  const bad = () => new Error(`time: invalid duration ${JSON.stringify(s)}`);
  let rest = s;
  let sign = 1;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    sign = rest.startsWith("-") ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0;
  if (rest === "") throw bad();
  let total = 0;
  const part = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== "") {
    const m = part.exec(rest);
    if (m === null) throw bad();
    total += Number(m[1]) * unitMs[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}
