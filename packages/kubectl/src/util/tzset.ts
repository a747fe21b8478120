/**
 * The POSIX TZ rule string of a TZif footer ("EST5EDT,M3.2.0,M11.1.0"), evaluated as Go's
 * go/src/time/zoneinfo.go tzset / tzsetName / tzsetOffset / tzsetRule / tzruleTime do,
 * for the UTC offset at one instant.
 */
const secondsPerHour = 3600;
const secondsPerDay = 86400;
const daysBefore = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

type Rule = { kind: "julian" | "doy" | "mwd"; day: number; week: number; mon: number; time: number };
type Parsed<T> = [T, string] | null;

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (m: number, y: number): number => (m === 2 && isLeap(y) ? 29 : (daysBefore[m] ?? 0) - (daysBefore[m - 1] ?? 0));

function tzsetName(s: string): Parsed<string> {
  if (s === "") return null;
  if (s[0] === "<") {
    const end = s.indexOf(">");
    return end < 0 ? null : [s.slice(1, end), s.slice(end + 1)];
  }
  const i = s.search(/[0-9,+-]/);
  if (i < 0) return s.length < 3 ? null : [s, ""];
  return i < 3 ? null : [s.slice(0, i), s.slice(i)];
}

function tzsetNum(s: string, min: number, max: number): Parsed<number> {
  const m = /^[0-9]+/.exec(s);
  if (m === null) return null;
  const n = Number(m[0]);
  if (n < min || n > max) return null;
  return [n, s.slice(m[0].length)];
}

function tzsetOffset(s: string): Parsed<number> {
  if (s === "") return null;
  const neg = s[0] === "-";
  if (s[0] === "+" || s[0] === "-") s = s.slice(1);
  const h = tzsetNum(s, 0, 24 * 7);
  if (h === null) return null;
  let off = h[0] * secondsPerHour;
  s = h[1];
  for (const unit of [60, 1]) {
    if (s[0] !== ":") break;
    const n = tzsetNum(s.slice(1), 0, 59);
    if (n === null) return null;
    off += n[0] * unit;
    s = n[1];
  }
  return [neg ? -off : off, s];
}

function tzsetRule(s: string): Parsed<Rule> {
  if (s === "") return null;
  const r: Rule = { kind: "doy", day: 0, week: 0, mon: 0, time: 2 * secondsPerHour };
  if (s[0] === "J") {
    const d = tzsetNum(s.slice(1), 1, 365);
    if (d === null) return null;
    [r.kind, r.day, s] = ["julian", d[0], d[1]];
  } else if (s[0] === "M") {
    const mon = tzsetNum(s.slice(1), 1, 12);
    if (mon === null || mon[1][0] !== ".") return null;
    const week = tzsetNum(mon[1].slice(1), 1, 5);
    if (week === null || week[1][0] !== ".") return null;
    const day = tzsetNum(week[1].slice(1), 0, 6);
    if (day === null) return null;
    [r.kind, r.mon, r.week, r.day, s] = ["mwd", mon[0], week[0], day[0], day[1]];
  } else {
    const d = tzsetNum(s, 0, 365);
    if (d === null) return null;
    [r.day, s] = [d[0], d[1]];
  }
  if (s[0] !== "/") return [r, s];
  const off = tzsetOffset(s.slice(1));
  if (off === null) return null;
  r.time = off[0];
  return [r, off[1]];
}

/** Seconds after the start of `year` (UTC) at which rule `r` fires, for a zone at offset `off`. */
function tzruleTime(year: number, r: Rule, off: number): number {
  let s: number;
  if (r.kind === "julian") {
    s = (r.day - 1) * secondsPerDay + (isLeap(year) && r.day >= 60 ? secondsPerDay : 0);
  } else if (r.kind === "doy") {
    s = r.day * secondsPerDay;
  } else {
    // Zeller's congruence: the weekday of the first day of r.mon.
    const m1 = ((r.mon + 9) % 12) + 1;
    const yy0 = r.mon <= 2 ? year - 1 : year;
    const yy1 = Math.trunc(yy0 / 100);
    const yy2 = yy0 % 100;
    let dow = (Math.trunc((26 * m1 - 2) / 10) + 1 + yy2 + Math.trunc(yy2 / 4) + Math.trunc(yy1 / 4) - 2 * yy1) % 7;
    if (dow < 0) dow += 7;
    let d = r.day - dow;
    if (d < 0) d += 7;
    for (let i = 1; i < r.week; i++) {
      if (d + 7 >= daysIn(r.mon, year)) break;
      d += 7;
    }
    d += daysBefore[r.mon - 1] ?? 0;
    if (isLeap(year) && r.mon > 2) d++;
    s = d * secondsPerDay;
  }
  return s + r.time - off;
}

/** tzset: the offset `tz` gives at unix second `sec`, or null when Go would reject the string. */
export function tzset(tz: string, sec: number): number | null {
  const std = tzsetName(tz);
  if (std === null) return null;
  const stdOff = tzsetOffset(std[1]);
  if (stdOff === null) return null;
  let stdOffset = -stdOff[0];
  let s = stdOff[1];
  if (s === "" || s[0] === ",") return stdOffset;
  const dst = tzsetName(s);
  if (dst === null) return null;
  s = dst[1];
  let dstOffset = stdOffset + secondsPerHour;
  if (s !== "" && s[0] !== ",") {
    const o = tzsetOffset(s);
    if (o === null) return null;
    [dstOffset, s] = [-o[0], o[1]];
  }
  if (s === "") s = ",M3.2.0,M11.1.0";
  if (s[0] !== "," && s[0] !== ";") return null;
  const start = tzsetRule(s.slice(1));
  if (start === null || start[1][0] !== ",") return null;
  const end = tzsetRule(start[1].slice(1));
  if (end === null || end[1] !== "") return null;
  // Year and second-of-year of `sec` in UTC, as Go derives them from the absolute time.
  const d = new Date(sec * 1000);
  const year = d.getUTCFullYear();
  const y0 = new Date(0);
  y0.setUTCFullYear(year, 0, 1);
  const ysec = sec - Math.floor(y0.getTime() / 1000);
  let startSec = tzruleTime(year, start[0], stdOffset);
  let endSec = tzruleTime(year, end[0], dstOffset);
  if (endSec < startSec) {
    [startSec, endSec] = [endSec, startSec];
    [stdOffset, dstOffset] = [dstOffset, stdOffset];
  }
  if (ysec < startSec || ysec >= endSec) return stdOffset;
  return dstOffset;
}
