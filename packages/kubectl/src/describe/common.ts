/** Helpers shared by describers: labels, annotations, events (describe.go). */
import type { Event } from "@servicenet/api";
import { compareGo, humanDuration, parseTime, sinceMs } from "@servicenet/printers";
import { goSort } from "../util/go-sort.ts";
import { byteLength, byteSlice, goTrimSpace } from "../util/strings.ts";
import type { Location } from "../util/zoneinfo.ts";
import { LEVEL_0, LEVEL_1, type PrefixWriter } from "./prefix-writer.ts";

/** Annotations kubectl never shows. */
const skipAnnotations = new Set(["kubectl.kubernetes.io/last-applied-configuration"]);
const maxAnnotationLen = 140;

/** Options every describer accepts. */
export interface DescribeOptions {
  /** The clock for event ages (kubectl uses time.Now()). */
  now?: Date;
  /**
   * The kubectl minor version to imitate (default 33, verified against the
   * real 1.33 binary). From 34 on, describe service adds the AppProtocol and
   * Traffic Distribution lines (from upstream source, not binary-verified).
   */
  kubectlMinor?: number;
  /** time.Local for printed times (default: read from this process's $TZ and zoneinfo, as Go does). */
  location?: Location;
}

/** printLabelsMultiline: "Title:\t<none>" or one "k=v" per line, sorted. */
export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | null | undefined): void {
  w.write(LEVEL_0, `${title}:\t`);
  const keys = Object.keys(labels ?? {}).sort(compareGo);
  if (keys.length === 0) {
    w.writeLine("<none>");
    return;
  }
  keys.forEach((key, i) => {
    if (i !== 0) {
      w.write(LEVEL_0, "");
      w.write(LEVEL_0, "\t");
    }
    w.write(LEVEL_0, `${key}=${(labels ?? {})[key] ?? ""}\n`);
  });
}

/** printAnnotationsMultiline: long or multi-line values wrap under the key, cut at 138 bytes. */
export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | null | undefined): void {
  w.write(LEVEL_0, `${title}:\t`);
  const all = annotations ?? {};
  const keys = Object.keys(all)
    .filter((k) => !skipAnnotations.has(k))
    .sort(compareGo);
  if (keys.length === 0) {
    w.writeLine("<none>");
    return;
  }
  const indent = "\t";
  keys.forEach((key, i) => {
    if (i !== 0) w.write(LEVEL_0, indent);
    const value = (all[key] ?? "").replace(/\n$/, "");
    if (byteLength(value) + byteLength(key) + 2 > maxAnnotationLen || value.includes("\n")) {
      w.write(LEVEL_0, `${key}:\n`);
      for (const s of value.split("\n")) w.write(LEVEL_0, `${indent}  ${shorten(s, maxAnnotationLen - 2)}\n`);
    } else {
      w.write(LEVEL_0, `${key}: ${value}\n`);
    }
  });
}

function shorten(s: string, max: number): string {
  return byteLength(s) > max ? byteSlice(s, max) + "..." : s;
}

/** translateTimestampSince / translateMicroTimestampSince: "<unknown>" for zero times, time.Since saturating. */
function since(ts: string | null | undefined, now: Date): string {
  const d = parseTime(ts);
  return d === null ? "<unknown>" : humanDuration(sinceMs(now, d));
}

/** Go's zero time (0001-01-01T00:00:00Z) in Unix milliseconds: what an absent lastTimestamp compares as. */
const zeroTimeMs = -62135596800000;

/** lastTimestamp as Go's Time.Before compares it (absent is the zero time, year 0 is before it). */
function lastTimestampMs(e: Event): number {
  return parseTime(e.lastTimestamp)?.getTime() ?? zeroTimeMs;
}

/**
 * kubectl/pkg/util/event SortableEvents: Less compares lastTimestamp only (Before), and
 * DescribeEvents sorts with sort.Sort, so events with equal times land where Go's
 * pdqsort puts them (goSort), not in input order.
 */
export function sortEvents(events: readonly Event[]): Event[] {
  return goSort([...events], (a, b) => lastTimestampMs(a) < lastTimestampMs(b));
}

/** DescribeEvents: "Events:\t<none>" or a separately aligned table sorted by time. */
export function describeEvents(events: readonly Event[], w: PrefixWriter, now: Date): void {
  if (events.length === 0) {
    w.write(LEVEL_0, "Events:\t<none>\n");
    return;
  }
  w.flush();
  const sorted = sortEvents(events);
  w.write(LEVEL_0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
  w.write(LEVEL_1, "----\t------\t----\t----\t-------\n");
  for (const e of sorted) {
    let first = since(e.eventTime, now);
    if (parseTime(e.eventTime) === null) first = since(e.firstTimestamp, now);
    let interval: string;
    if (e.series !== undefined && e.series !== null) {
      interval = `${since(e.series.lastObservedTime, now)} (x${e.series.count ?? 0} over ${first})`;
    } else if ((e.count ?? 0) > 1) {
      interval = `${since(e.lastTimestamp, now)} (x${e.count ?? 0} over ${first})`;
    } else {
      interval = first;
    }
    const source = e.source?.component || e.reportingComponent || "";
    w.write(LEVEL_1, `${e.type ?? ""}\t${e.reason ?? ""}\t${interval}\t${source}\t${goTrimSpace(e.message ?? "")}\n`);
  }
}

/** Writes the events section when events were fetched (undefined means "not shown"). */
export function maybeDescribeEvents(events: readonly Event[] | undefined, w: PrefixWriter, opts: DescribeOptions): void {
  if (events !== undefined) describeEvents(events, w, opts.now ?? new Date());
}
