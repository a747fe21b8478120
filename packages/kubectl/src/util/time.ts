/**
 * Go's time formatting of metav1.Time for describe. HumanDuration and translateTimestampSince
 * live in @servicenet/printers.
 */
import { parseTime } from "@servicenet/printers";

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
