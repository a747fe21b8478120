/**
 * events.k8s.io/v1 Event is served as a read-only view of the core/v1 Events in storage, converted
 * the way upstream converts between the two versions of the shared storage.
 */

/** core/v1 Event -> events.k8s.io/v1 Event (upstream's conversion of the shared storage). */
export function toEventsV1(e: Record<string, unknown>): Record<string, unknown> {
  const pick = (k: string): unknown => e[k];
  const out: Record<string, unknown> = { apiVersion: "events.k8s.io/v1", kind: "Event", metadata: e["metadata"] };
  const map: [string, string][] = [
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
  for (const [from, to] of map) if (pick(from) !== undefined && pick(from) !== "") out[to] = pick(from);
  return out;
}
