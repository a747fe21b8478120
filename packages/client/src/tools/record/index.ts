/** client-go tools/record: the EventRecorder, EventBroadcaster, correlator and sinks. */
export { EventBroadcaster, generateEventName, getReference } from "./event.ts";
export type { EventRecorder, EventSink, BroadcasterOptions } from "./event.ts";
export { EventCorrelator, getEventKey, getSpamKey, PassiveTokenBucket } from "./events-cache.ts";
export type { CorrelatorOptions, EventCorrelateResult } from "./events-cache.ts";
export { clientNodeEventSink } from "./sink.ts";
export { FakeRecorder } from "./fake.ts";
