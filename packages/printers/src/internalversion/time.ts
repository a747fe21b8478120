/** printers.go translateTimestampSince / translateMicroTimestampSince, with an explicit clock. */
import { humanDuration } from "../duration/duration.ts";

/** Go's zero time (0001-01-01T00:00:00Z) in Unix milliseconds. */
const zeroTimeMs = -62135596800000;
/** time.Duration's range in milliseconds: Time.Sub saturates there (about 292 years). */
const maxDurationMs = 9223372036854.775;

/**
 * Parses a metav1.Time or MicroTime; empty, missing, null or Go's zero time (IsZero: exactly
 * 0001-01-01T00:00:00Z, in any offset) is null. Years before 0002 are ordinary times.
 */
export function parseTime(ts: string | null | undefined): Date | null {
  if (ts === undefined || ts === null || ts === "") return null;
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return null;
  // A MicroTime a few microseconds after the zero time is not zero (JS keeps milliseconds only).
  if (d.getTime() === zeroTimeMs && !/\.\d{3}0*[1-9]/.test(ts)) return null;
  return d;
}

/** time.Since(t) in milliseconds, saturated to time.Duration's range as Go's Time.Sub does. */
export function sinceMs(now: Date, t: Date): number {
  return Math.max(-maxDurationMs, Math.min(maxDurationMs, now.getTime() - t.getTime()));
}

/** translateTimestampSince: "<unknown>" for the zero time, else HumanDuration(time.Since(ts)). */
export function translateTimestampSince(ts: string | null | undefined, now: Date): string {
  const d = parseTime(ts);
  if (d === null) return "<unknown>";
  return humanDuration(sinceMs(now, d));
}
