/**
 * client-go tools/events `FakeRecorder`: keeps `"<type> <reason> <note>"` per event, so a
 * controller's unit tests can check what it reported.
 */
import type { ObjectReference } from "@servicenet/api";
import type { EventRecorder } from "./event-recorder.ts";

/** An events/v1 EventRecorder that only remembers what it was told. */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];

  eventf(
    _regarding: ObjectReference,
    _related: ObjectReference | null,
    eventtype: string,
    reason: string,
    _action: string,
    note: string,
  ): void {
    this.events.push(`${eventtype} ${reason} ${note}`);
  }
}
