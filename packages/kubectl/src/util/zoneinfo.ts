/**
 * time.Local as a Go program (kubectl) finds it: go/src/time/zoneinfo_unix.go initLocal
 * ($TZ unset: /etc/localtime; $TZ="": UTC; $TZ="[:]/abs/path" or "[:]Area/City" under
 * /usr/share/zoneinfo and the other platform folders; anything unreadable: UTC), the TZif
 * reader of zoneinfo_read.go LoadLocationFromTZData, and Location.lookup with the
 * POSIX-TZ footer rules of zoneinfo.go tzset for instants after the last transition.
 * Node's own Date uses ICU's built-in zone data instead, which can disagree with the
 * system files Go reads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tzset } from "./tzset.ts";

interface Zone {
  offset: number;
  isDST: boolean;
  /** The zone's abbreviation ("UTC", "CET"), which time.Time.String prints. */
  abbr?: string;
}

/** A loaded time zone: zones, transitions (unix seconds) and the footer TZ string. */
export interface Location {
  name: string;
  zones: Zone[];
  tx: { when: number; index: number }[];
  extend: string;
}

/** Go's UTC location. */
export const utc: Location = { name: "UTC", zones: [{ offset: 0, isDST: false, abbr: "UTC" }], tx: [], extend: "" };

const platformZoneSources = ["/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo"];

/** initLocal: the zone a Go program uses as time.Local under `env`. */
export function goLocalLocation(env: Record<string, string | undefined>): Location {
  const tz = env["TZ"];
  if (tz === undefined) return loadLocation("localtime", ["/etc"]) ?? utc;
  let name = tz;
  if (name.startsWith(":")) name = name.slice(1);
  if (name.startsWith("/")) return loadLocation(name, [""]) ?? utc;
  if (name !== "" && name !== "UTC") return loadLocation(name, platformZoneSources) ?? utc;
  return utc;
}

function loadLocation(name: string, sources: string[]): Location | null {
  for (const dir of sources) {
    try {
      const loc = parseTZif(readFileSync(dir === "" ? name : join(dir, name)));
      if (loc !== null) return { ...loc, name };
    } catch {
      // Missing or unreadable: try the next folder, as Go does.
    }
  }
  return null;
}

/** LoadLocationFromTZData: the v2+ 64-bit block when present, else v1; null when malformed. */
export function parseTZif(buf: Buffer): Location | null {
  if (buf.length < 44 || buf.toString("latin1", 0, 4) !== "TZif") return null;
  const version = buf[4] === 0 ? 1 : (buf[4] ?? 0) - 48;
  const counts = (at: number) => [0, 1, 2, 3, 4, 5].map((i) => buf.readUInt32BE(at + 20 + i * 4));
  let at = 0;
  let [isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt] = counts(at) as [number, number, number, number, number, number];
  let timeSize = 4;
  if (version > 1) {
    at += 44 + timecnt * 4 + timecnt + typecnt * 6 + charcnt + leapcnt * 8 + isstdcnt + isutcnt;
    if (buf.toString("latin1", at, at + 4) !== "TZif") return null;
    [isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt] = counts(at) as [number, number, number, number, number, number];
    timeSize = 8;
  }
  let p = at + 44;
  const whens: number[] = [];
  for (let i = 0; i < timecnt; i++, p += timeSize) whens.push(timeSize === 8 ? Number(buf.readBigInt64BE(p)) : buf.readInt32BE(p));
  const indexes: number[] = [];
  for (let i = 0; i < timecnt; i++, p++) indexes.push(buf[p] ?? 0);
  const zones: Zone[] = [];
  const abbrIndexes: number[] = [];
  for (let i = 0; i < typecnt; i++, p += 6) {
    zones.push({ offset: buf.readInt32BE(p), isDST: buf[p + 4] !== 0 });
    abbrIndexes.push(buf[p + 5] ?? 0);
  }
  if (zones.length === 0) return null;
  // The abbreviations: NUL-terminated strings in the chars block, indexed by each zone.
  zones.forEach((z, i) => {
    const start = p + (abbrIndexes[i] ?? 0);
    const end = buf.indexOf(0, start);
    z.abbr = buf.toString("latin1", start, end < 0 || end > p + charcnt ? p + charcnt : end);
  });
  p += charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt;
  let extend = "";
  if (version > 1 && buf[p] === 0x0a) {
    const end = buf.indexOf(0x0a, p + 1);
    if (end > p) extend = buf.toString("latin1", p + 1, end);
  }
  const tx = whens.map((when, i) => ({ when, index: indexes[i] ?? 0 }));
  // A fixed zone (Etc/UTC) gets one fake transition covering all time.
  if (tx.length === 0) tx.push({ when: -Number.MAX_VALUE, index: 0 });
  return { name: "", zones, tx, extend };
}

/** Location.lookup: the UTC offset (seconds) in effect at unix second `sec`. */
export function lookupOffset(loc: Location, sec: number): number {
  if (loc.tx.length === 0 || sec < (loc.tx[0]?.when ?? 0)) return loc.zones[lookupFirstZone(loc)]?.offset ?? 0;
  let lo = 0;
  let hi = loc.tx.length;
  while (hi - lo > 1) {
    const m = (lo + hi) >>> 1;
    if (sec < (loc.tx[m]?.when ?? 0)) hi = m;
    else lo = m;
  }
  const zone = loc.zones[loc.tx[lo]?.index ?? 0] ?? { offset: 0, isDST: false };
  if (lo === loc.tx.length - 1 && loc.extend !== "") {
    const ext = tzset(loc.extend, sec);
    if (ext !== null) return ext;
  }
  return zone.offset;
}

function lookupFirstZone(loc: Location): number {
  if (!loc.tx.some((t) => t.index === 0)) return 0;
  const first = loc.tx[0];
  if (first !== undefined && loc.zones[first.index]?.isDST === true) {
    for (let zi = first.index - 1; zi >= 0; zi--) if (loc.zones[zi]?.isDST === false) return zi;
  }
  const zi = loc.zones.findIndex((z) => !z.isDST);
  return zi < 0 ? 0 : zi;
}

/**
 * The abbreviation of the zone in effect at unix second `sec` (Location.lookup's name). After the
 * last transition, where the footer rule gives only an offset, the zone with that offset names it.
 */
export function lookupAbbreviation(loc: Location, sec: number): string {
  const offset = lookupOffset(loc, sec);
  return loc.zones.find((z) => z.offset === offset && z.abbr !== undefined)?.abbr ?? "";
}
