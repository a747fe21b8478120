/**
 * The standard cron schedule parser CronJobs use (github.com/robfig/cron/v3 parser.go
 * `ParseStandard`: five fields, descriptors such as `@hourly` and `@every 1h`, a leading `TZ=` or
 * `CRON_TZ=`), with its error messages, and the `Next` of spec.go's SpecSchedule and
 * constantdelay.go's ConstantDelaySchedule.
 */

/** One field's bounds and names (parser.go `bounds`). */
interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const minutes: Bounds = { min: 0, max: 59 };
const hours: Bounds = { min: 0, max: 23 };
const dom: Bounds = { min: 1, max: 31 };
const months: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const dow: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** A parsed schedule: the allowed values of each field (a star field matches every value). */
export interface SpecSchedule {
  kind: "spec";
  minute: ReadonlySet<number>;
  hour: ReadonlySet<number>;
  dom: ReadonlySet<number>;
  month: ReadonlySet<number>;
  dow: ReadonlySet<number>;
  /** The day-of-month and day-of-week fields were `*` or `?` (spec.go `starBit`). */
  domStar: boolean;
  dowStar: boolean;
  /** The IANA zone of a `TZ=` prefix. */
  location?: string;
}

/** `@every <duration>`: a run every `delayMs`, rounded down to the second. */
export interface ConstantDelaySchedule {
  kind: "every";
  delayMs: number;
}

export type Schedule = SpecSchedule | ConstantDelaySchedule;

/** A parse failure: `message` is robfig/cron's error text. */
export class CronParseError extends Error {}

const fail = (message: string): never => {
  throw new CronParseError(message);
};

/** Go's `strconv.Atoi` error for `s`. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) return fail(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63 - 1)
    return fail(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

/** `mustParseInt`. */
function mustParseInt(expr: string): number {
  const n = atoi(expr);
  if (n < 0) fail(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

/** `parseIntOrName`. */
function parseIntOrName(expr: string, names: Bounds["names"]): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

/** `getRange`: the values of one comma-separated part, and whether it was a star. */
function getRange(expr: string, r: Bounds, into: Set<number>): boolean {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = (rangeAndStep[0] ?? "").split("-");
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? "", r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? "", r.names);
    else return fail(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? "");
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) fail(`too many slashes: ${expr}`);
  if (start < r.min) fail(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) fail(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) fail(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) fail(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.add(v);
  return star;
}

/** `getField`: the union of the field's comma-separated ranges. */
function getField(field: string, r: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(",").filter((e) => e !== "")) star = getRange(expr, r, values) || star;
  return { values, star };
}

const units: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's `time.ParseDuration` (ms; its error text). */
export function parseGoDuration(s: string): number {
  const bad = () => fail(`time: invalid duration ${JSON.stringify(s)}`);
  let rest = s;
  let sign = 1;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    sign = rest.startsWith("-") ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0;
  if (rest === "") bad();
  let total = 0;
  while (rest !== "") {
    const m = /^(\d*)(\.\d*)?([a-zµμ]+)/.exec(rest);
    if (m === null || (m[1] === "" && (m[2] ?? ".").length <= 1)) return bad();
    const unit = units[m[3] ?? ""];
    if (unit === undefined) return fail(`time: unknown unit ${JSON.stringify(m[3])} in duration ${JSON.stringify(s)}`);
    total += Number(`${m[1] || "0"}${m[2] ?? ""}`) * unit;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** `parseDescriptor`. */
function parseDescriptor(descriptor: string, location: string | undefined): Schedule {
  const spec = (m: string, h: string, d: string, mo: string, w: string) => parseFields([m, h, d, mo, w], location);
  switch (descriptor) {
    case "@yearly":
    case "@annually":
      return spec("0", "0", "1", "1", "*");
    case "@monthly":
      return spec("0", "0", "1", "*", "*");
    case "@weekly":
      return spec("0", "0", "*", "*", "0");
    case "@daily":
    case "@midnight":
      return spec("0", "0", "*", "*", "*");
    case "@hourly":
      return spec("0", "*", "*", "*", "*");
  }
  const every = "@every ";
  if (descriptor.startsWith(every)) {
    let d: number;
    try {
      d = parseGoDuration(descriptor.slice(every.length));
    } catch (e) {
      return fail(`failed to parse duration ${descriptor}: ${(e as Error).message}`);
    }
    // constantdelay.go `Every`: at least a second, whole seconds.
    return { kind: "every", delayMs: d < 1000 ? 1000 : d - (d % 1000) };
  }
  return fail(`unrecognized descriptor: ${descriptor}`);
}

function parseFields(fields: readonly string[], location: string | undefined): SpecSchedule {
  const [mi, h, d, mo, w] = [
    getField(fields[0] ?? "", minutes),
    getField(fields[1] ?? "", hours),
    getField(fields[2] ?? "", dom),
    getField(fields[3] ?? "", months),
    getField(fields[4] ?? "", dow),
  ];
  return {
    kind: "spec",
    minute: mi.values,
    hour: h.values,
    dom: d.values,
    month: mo.values,
    dow: w.values,
    domStar: d.star,
    dowStar: w.star,
    ...(location !== undefined ? { location } : {}),
  };
}

/** Whether `zone` is an IANA time zone this runtime knows (Go's `time.LoadLocation`). */
export function isKnownTimeZone(zone: string): boolean {
  if (zone === "UTC" || zone === "") return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `cron.ParseStandard`: throws {@link CronParseError} with robfig/cron's message. */
export function parseStandard(input: string): Schedule {
  let spec = input;
  if (spec.length === 0) fail("empty spec string");
  let location: string | undefined;
  if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
    const i = spec.indexOf(" ");
    const eq = spec.indexOf("=");
    const name = i < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, i);
    if (!isKnownTimeZone(name)) fail(`provided bad location ${name}: unknown time zone ${name}`);
    location = name;
    spec = i < 0 ? "" : spec.slice(i).trim();
  }
  if (spec.startsWith("@")) return parseDescriptor(spec, location);
  const fields = spec.split(/\s+/).filter((f) => f !== "");
  if (fields.length !== 5) fail(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
  return parseFields(fields, location);
}
