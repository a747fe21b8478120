/**
 * When a parsed cron schedule next runs (github.com/robfig/cron/v3 spec.go `SpecSchedule.Next`,
 * constantdelay.go `ConstantDelaySchedule.Next`): the fields are matched on the wall clock of the
 * schedule's time zone (UTC when it has none), from the next whole minute on, giving up five
 * years out as upstream does.
 */
import type { Schedule, SpecSchedule } from "./cron-schedule.ts";

const minuteMs = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The offset (ms) of `zone` from UTC at instant `t`. */
function zoneOffset(t: number, zone: string): number {
  if (zone === "UTC") return 0;
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(
    Number(p["year"]),
    Number(p["month"]) - 1,
    Number(p["day"]),
    Number(p["hour"]),
    Number(p["minute"]),
    Number(p["second"]),
  );
  return wall - (t - (t % 1000));
}

/** The instant of wall-clock time `wall` (ms, as if UTC) in `zone`; a skipped hour moves forward. */
function instantOf(wall: number, zone: string): number {
  const guess = wall - zoneOffset(wall, zone);
  return wall - zoneOffset(guess, zone);
}

/** `dayMatches`: with a star in day-of-month or day-of-week both must match, else either. */
function dayMatches(s: SpecSchedule, d: Date): boolean {
  const domMatch = s.dom.has(d.getUTCDate());
  const dowMatch = s.dow.has(d.getUTCDay());
  return s.domStar || s.dowStar ? domMatch && dowMatch : domMatch || dowMatch;
}

function nextSpec(s: SpecSchedule, after: number, defaultZone: string): number | undefined {
  const zone = s.location ?? defaultZone;
  // Wall-clock time, held in a Date read with the UTC getters; start at the next whole minute.
  let wall = after + zoneOffset(after, zone);
  wall = wall - (wall % minuteMs) + minuteMs;
  const yearLimit = new Date(wall).getUTCFullYear() + 5;
  for (;;) {
    const d = new Date(wall);
    if (d.getUTCFullYear() > yearLimit) return undefined;
    if (!s.month.has(d.getUTCMonth() + 1)) {
      wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      continue;
    }
    if (!dayMatches(s, d)) {
      wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
      continue;
    }
    if (!s.hour.has(d.getUTCHours())) {
      wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
      continue;
    }
    if (!s.minute.has(d.getUTCMinutes())) {
      wall += minuteMs;
      continue;
    }
    const t = instantOf(wall, zone);
    if (t > after) return t;
    wall += minuteMs;
  }
}

/**
 * The first time after `after` (ms) the schedule runs, or undefined when it never does within
 * five years (Go's zero time). `defaultZone` is the zone of a schedule without `TZ=`
 * (the CronJob's spec.timeZone, else the controller's).
 */
export function nextTime(s: Schedule, after: number, defaultZone = "UTC"): number | undefined {
  if (s.kind === "every") return after - (after % 1000) + s.delayMs;
  return nextSpec(s, after, defaultZone);
}
