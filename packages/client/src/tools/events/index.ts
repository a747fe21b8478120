/**
 * client-go tools/events: the events.k8s.io/v1 recorder (`eventf` with `action`, `regarding`,
 * `related`, `note`) on tools/record's EventBroadcaster and sinks.
 */
export { newEventRecorder } from "./event-recorder.ts";
export type { EventRecorder, EventRecorderOptions } from "./event-recorder.ts";
export { FakeRecorder } from "./fake.ts";
