/** The Event table (printers.go printEvent). */
import type { Event, Table } from "@servicenet/api";
import { column, generateTable, type PrintOptions, type RowOptions, type TableHandler } from "../tablegenerator.ts";
import { parseTime, translateTimestampSince } from "./time.ts";

function printEvent(e: Event, { wide, now }: RowOptions): unknown[] {
  const first =
    parseTime(e.firstTimestamp) === null ? translateTimestampSince(e.eventTime, now) : translateTimestampSince(e.firstTimestamp, now);
  let last = parseTime(e.lastTimestamp) === null ? first : translateTimestampSince(e.lastTimestamp, now);
  let count = e.count ?? 0;
  if (e.series !== undefined && e.series !== null) {
    last = translateTimestampSince(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) count = 1; // Singleton events have no count in the new API.
  const kind = (e.involvedObject?.kind ?? "").toLowerCase();
  const target = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
  const message = (e.message ?? "").trim();
  if (!wide) return [last, e.type ?? "", e.reason ?? "", target, message];
  // formatEventSource: the component, then ", host" when there is one.
  const source = [e.source?.component ?? "", ...(e.source?.host ? [e.source.host] : [])].join(", ");
  return [
    last,
    e.type ?? "",
    e.reason ?? "",
    target,
    e.involvedObject?.fieldPath ?? "",
    source,
    message,
    first,
    count,
    e.metadata?.name ?? "",
  ];
}

/** LAST SEEN TYPE REASON OBJECT MESSAGE, wide adds SUBOBJECT SOURCE FIRST SEEN COUNT NAME. */
export const eventHandler: TableHandler<Event> = {
  columnDefinitions: [
    column("Last Seen", "The time at which the most recent occurrence of this event was recorded."),
    column("Type", "Type of this event (Normal, Warning), new types could be added in the future"),
    column(
      "Reason",
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    column("Object", "The object that this event is about."),
    column(
      "Subobject",
      "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.",
      { priority: 1 },
    ),
    column("Source", "The component reporting this event. Should be a short machine understandable string.", { priority: 1 }),
    column("Message", "A human-readable description of the status of this operation."),
    column("First Seen", "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", { priority: 1 }),
    column("Count", "The number of times this event has occurred.", { priority: 1 }),
    column("Name", "Name must be unique within a namespace.", { priority: 1, format: "name" }),
  ],
  printRow: printEvent,
};

/** The Table the apiserver returns for events. */
export function printEventTable(items: readonly Event[], opts: PrintOptions = {}): Table {
  return generateTable(eventHandler, items, opts);
}
