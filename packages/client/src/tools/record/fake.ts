/**
 * client-go's `record.FakeRecorder`: keeps `"<type> <reason> <message>"` per event (plus the
 * annotations, as Go prints a map, when there are any), so a controller's unit tests can check
 * what it reported.
 */
import type { ObjectReference } from "@servicenet/api";
import type { EventRecorder } from "./event.ts";

/** An EventRecorder that only remembers what it was told. */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];

  event(_object: ObjectReference, eventtype: string, reason: string, message: string): void {
    this.events.push(`${eventtype} ${reason} ${message}`);
  }

  annotatedEvent(_object: ObjectReference, annotations: Record<string, string>, eventtype: string, reason: string, message: string): void {
    const keys = Object.keys(annotations).sort();
    const printed = keys.length === 0 ? "" : ` map[${keys.map((k) => `${k}:${annotations[k]}`).join(" ")}]`;
    this.events.push(`${eventtype} ${reason} ${message}${printed}`);
  }
}
