/**
 * k8s.io/apimachinery/pkg/util/duration HumanDuration and the printers'
 * translateTimestampSince, with an explicit `now` so servers and tests are
 * deterministic.
 */

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** HumanDuration: "5s", "2m30s", "45m", "3h20m", "12h", "2d3h", "30d", "2y45d", "9y". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** Parses an RFC 3339 timestamp; empty or missing is Go's zero time (null). */
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

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad2 = (n: number): string => String(n).padStart(2, "0");

/**
 * Go's time.RFC1123Z ("Mon, 02 Jan 2006 15:04:05 -0700") in the process's local
 * zone, as kubectl formats metav1.Time (decoded into time.Local). The zero time
 * formats as Go does: "Mon, 01 Jan 0001 00:00:00 +0000".
 */
export function formatRFC1123Z(ts: string | null | undefined): string {
  const d = parseTime(ts);
  if (d === null) return "Mon, 01 Jan 0001 00:00:00 +0000";
  const off = -d.getTimezoneOffset();
  const sign = off < 0 ? "-" : "+";
  const abs = Math.abs(off);
  const zone = `${sign}${pad2(Math.trunc(abs / 60))}${pad2(abs % 60)}`;
  return (
    `${days[d.getDay()]}, ${pad2(d.getDate())} ${months[d.getMonth()]} ${d.getFullYear()} ` +
    `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())} ${zone}`
  );
}
