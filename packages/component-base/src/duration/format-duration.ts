/** Go's time.Duration.String for millisecond durations ("0s", "250ms", "30s", "1m0s", "24h0m0s"), as metav1.Duration serializes. */

/** Formats `ms` milliseconds the way Go prints a time.Duration (sub-millisecond parts are dropped). */
export function formatGoDuration(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  let rest = Math.round(Math.abs(ms));
  if (rest === 0) return "0s";
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  // Seconds keep their fraction without trailing zeros ("1.5s").
  const s = `${Math.floor(rest / 1000)}${
    rest % 1000 === 0
      ? ""
      : `.${String(rest % 1000)
          .padStart(3, "0")
          .replace(/0+$/, "")}`
  }s`;
  if (h > 0) return `${sign}${h}h${m}m${s}`;
  if (m > 0) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}
