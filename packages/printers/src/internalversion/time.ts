/** printers.go translateTimestampSince / translateMicroTimestampSince, with an explicit clock. */
import { humanDuration } from "../duration/duration.ts";

/** Parses a metav1.Time or MicroTime; empty, missing, null or Go's zero time is null (IsZero). */
export function parseTime(ts: string | null | undefined): Date | null {
  if (ts === undefined || ts === null || ts === "") return null;
  const d = new Date(ts);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() <= 1) return null;
  return d;
}

/** translateTimestampSince: "<unknown>" for the zero time, else HumanDuration(now - ts). */
export function translateTimestampSince(ts: string | null | undefined, now: Date): string {
  const d = parseTime(ts);
  if (d === null) return "<unknown>";
  return humanDuration(now.getTime() - d.getTime());
}
