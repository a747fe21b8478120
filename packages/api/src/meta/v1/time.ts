/**
 * Parsing of `metav1.Time` / `metav1.MicroTime` JSON strings as Go's
 * `time.Parse(time.RFC3339, s)` does (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go
 * UnmarshalJSON), with Go's error messages, so that the apiserver stores and returns
 * what kube-apiserver does: UTC, `Z`, whole seconds (`MarshalJSON`: `t.UTC().Format(time.RFC3339)`).
 */

const layout = "2006-01-02T15:04:05Z07:00";

/** A parsed instant: milliseconds since the epoch plus the sub-millisecond microseconds. */
export interface ParsedTime {
  epochMs: number;
  micros: number;
}

class ParseError extends Error {}

const digitPatterns = new Map<string, RegExp>();

/** `^\d{min,max}`, compiled once per width. */
function digits(min: number, max: number): RegExp {
  const key = `${min},${max}`;
  let re = digitPatterns.get(key);
  if (re === undefined) digitPatterns.set(key, (re = new RegExp(`^\\d{${key}}`)));
  return re;
}

/** Go's `daysIn`. */
function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Parses `s` as Go's `time.Parse(time.RFC3339, s)`; a string is Go's error
 * (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`).
 * Like Go it takes a fraction of a second (`.` or `,`) after the seconds and an hour of one digit.
 */
export function parseRFC3339(s: string): ParsedTime | string {
  // Every watched object's timestamps come through here: the quoted input only for errors.
  const q = (): string => JSON.stringify(s);
  let rest = s;
  const bad = (elem: string): never => {
    throw new ParseError(`parsing time ${q()} as "${layout}": cannot parse ${JSON.stringify(rest)} as "${elem}"`);
  };
  const num = (elem: string, min: number, max: number): number => {
    const m = digits(min, max).exec(rest);
    if (m === null) bad(elem);
    rest = rest.slice(m![0].length);
    return Number(m![0]);
  };
  const lit = (l: string): void => {
    if (!rest.startsWith(l)) bad(l);
    rest = rest.slice(l.length);
  };
  try {
    const year = num("2006", 4, 4);
    lit("-");
    const month = num("01", 2, 2);
    if (month < 1 || month > 12) return `parsing time ${q()}: month out of range`;
    lit("-");
    const day = num("02", 2, 2);
    lit("T");
    const hour = num("15", 1, 2);
    if (hour > 23) return `parsing time ${q()}: hour out of range`;
    lit(":");
    const minute = num("04", 2, 2);
    if (minute > 59) return `parsing time ${q()}: minute out of range`;
    lit(":");
    const second = num("05", 2, 2);
    if (second > 59) return `parsing time ${q()}: second out of range`;
    let fraction = "";
    const f = /^[.,](\d+)/.exec(rest);
    if (f !== null) {
      fraction = f[1]!;
      rest = rest.slice(f[0].length);
    }
    let offsetMin = 0;
    if (rest.startsWith("Z")) rest = rest.slice(1);
    else {
      const o = /^([+-])(\d\d):(\d\d)/.exec(rest);
      if (o === null) bad("Z07:00");
      offsetMin = (o![1] === "-" ? -1 : 1) * (Number(o![2]) * 60 + Number(o![3]));
      rest = rest.slice(o![0].length);
    }
    if (rest !== "") return `parsing time ${q()}: extra text: ${JSON.stringify(rest)}`;
    if (day < 1 || day > daysIn(month, year)) return `parsing time ${q()}: day out of range`;
    const micros6 = Number((fraction + "000000").slice(0, 6));
    const epochMs = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000 + Math.floor(micros6 / 1000);
    return { epochMs, micros: micros6 % 1000 };
  } catch (e) {
    if (e instanceof ParseError) return e.message;
    throw e;
  }
}

/** `metav1.Time.MarshalJSON`: UTC, whole seconds (`2024-07-01T12:34:56Z`). */
export function formatParsedTime(t: ParsedTime): string {
  return new Date(t.epochMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `metav1.MicroTime.MarshalJSON`: UTC, six fractional digits (`2024-07-01T12:34:56.100000Z`). */
export function formatParsedMicroTime(t: ParsedTime): string {
  return new Date(t.epochMs).toISOString().replace(/Z$/, `${String(t.micros).padStart(3, "0")}Z`);
}
