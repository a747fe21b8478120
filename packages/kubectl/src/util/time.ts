/**
 * Go's time formatting of metav1.Time for describe. HumanDuration and translateTimestampSince
 * live in @servicenet/printers.
 */
import { goLocalLocation, lookupAbbreviation, lookupOffset, type Location } from "./zoneinfo.ts";

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad2 = (n: number): string => String(n).padStart(2, "0");

/** Go's "2006": at least four digits, zero-padded, a leading "-" for negative years. */
function longYear(y: number): string {
  return y < 0 ? `-${String(-y).padStart(4, "0")}` : String(y).padStart(4, "0");
}

/** Go's "-0700": the offset in whole minutes, truncated toward zero. */
function numericZone(offsetSec: number): string {
  const minutes = Math.trunc(offsetSec / 60);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad2(Math.trunc(abs / 60))}${pad2(abs % 60)}`;
}

let processLocal: Location | undefined;

/** time.Local of this process, read once as a Go program reads it (from $TZ and the system zoneinfo). */
export function processLocation(): Location {
  processLocal ??= goLocalLocation(process.env);
  return processLocal;
}

/**
 * Go's time.RFC1123Z ("Mon, 02 Jan 2006 15:04:05 -0700") in `loc` (default: this process's
 * time.Local), as kubectl formats a metav1.Time: UnmarshalJSON moves every parsed time into
 * time.Local (Go's zero time too, which then prints in the zone's first offset), while a null
 * or missing time stays time.Time{} in UTC: "Mon, 01 Jan 0001 00:00:00 +0000".
 */
export function formatRFC1123Z(ts: string | null | undefined, loc: Location = processLocation()): string {
  const d = ts === undefined || ts === null || ts === "" ? null : new Date(ts);
  if (d === null || Number.isNaN(d.getTime())) return "Mon, 01 Jan 0001 00:00:00 +0000";
  const sec = Math.floor(d.getTime() / 1000);
  const offset = lookupOffset(loc, sec);
  const local = new Date((sec + offset) * 1000);
  return (
    `${days[local.getUTCDay()]}, ${pad2(local.getUTCDate())} ${months[local.getUTCMonth()]} ${longYear(local.getUTCFullYear())} ` +
    `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())} ${numericZone(offset)}`
  );
}

/**
 * Go's time.Time.String ("2006-01-02 15:04:05.999999999 -0700 MST") of a metav1.Time in `loc`, as
 * `describe networkpolicy` prints "Created on": a zero time is "0001-01-01 00:00:00 +0000 UTC".
 */
export function formatGoTimeString(ts: string | null | undefined, loc: Location = processLocation()): string {
  const d = ts === undefined || ts === null || ts === "" ? null : new Date(ts);
  if (d === null || Number.isNaN(d.getTime())) return "0001-01-01 00:00:00 +0000 UTC";
  // metav1.Time carries whole seconds on the wire (RFC 3339 without fractions).
  const sec = Math.floor(d.getTime() / 1000);
  const offset = lookupOffset(loc, sec);
  const l = new Date((sec + offset) * 1000);
  const abbr = lookupAbbreviation(loc, sec) || numericZone(offset);
  return (
    `${longYear(l.getUTCFullYear())}-${pad2(l.getUTCMonth() + 1)}-${pad2(l.getUTCDate())} ` +
    `${pad2(l.getUTCHours())}:${pad2(l.getUTCMinutes())}:${pad2(l.getUTCSeconds())} ${numericZone(offset)} ${abbr}`
  );
}
