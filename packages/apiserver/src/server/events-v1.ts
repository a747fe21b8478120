/**
 * events.k8s.io/v1 Event is served as a read-only view of the core/v1 Events in storage, converted
 * the way upstream converts between the two versions of the shared storage.
 */

const fieldMap: readonly (readonly [core: string, eventsV1: string])[] = [
  ["eventTime", "eventTime"],
  ["series", "series"],
  ["reportingComponent", "reportingController"],
  ["reportingInstance", "reportingInstance"],
  ["action", "action"],
  ["reason", "reason"],
  ["involvedObject", "regarding"],
  ["related", "related"],
  ["message", "note"],
  ["type", "type"],
  ["source", "deprecatedSource"],
  ["firstTimestamp", "deprecatedFirstTimestamp"],
  ["lastTimestamp", "deprecatedLastTimestamp"],
  ["count", "deprecatedCount"],
];

/** core/v1 Event -> events.k8s.io/v1 Event (upstream's conversion of the shared storage). */
export function toEventsV1(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: "events.k8s.io/v1", kind: "Event", metadata: e["metadata"] };
  for (const [from, to] of fieldMap) if (e[from] !== undefined && e[from] !== "") out[to] = e[from];
  return out;
}

/** events.k8s.io/v1 Event -> core/v1 Event, the inverse of toEventsV1. */
export function fromEventsV1(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: "v1", kind: "Event", metadata: e["metadata"] };
  for (const [to, from] of fieldMap) if (e[from] !== undefined && e[from] !== "") out[to] = e[from];
  return out;
}
