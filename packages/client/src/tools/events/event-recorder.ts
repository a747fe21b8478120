/**
 * client-go tools/events (events.k8s.io/v1): `Eventf(regarding, related, eventtype, reason,
 * action, note)`. The Events go through the same EventBroadcaster as tools/record's, so one
 * correlator (aggregation, count/lastTimestamp patches, spam filter), one queue and one sink
 * serve both shapes. They are built as the core/v1 Event that events.k8s.io/v1 converts to
 * (pkg/apis/events/v1/conversion.go: regarding -> involvedObject, note -> message,
 * reportingController -> reportingComponent, deprecatedSource -> source), which is the shape
 * storage keeps and both APIs serve.
 */
import type { Event, ObjectReference } from "@servicenet/api";
import { hostname } from "node:os";
import { formatTime } from "../record/events-cache.ts";
import { generateEventName, validateEventType, type EventBroadcaster } from "../record/event.ts";

/** Records events.k8s.io/v1 Events (`events.EventRecorder`); never throws and never waits for the write. */
export interface EventRecorder {
  /** `eventtype` is "Normal" or "Warning"; `related` is the secondary object, null when none. */
  eventf(
    regarding: ObjectReference,
    related: ObjectReference | null,
    eventtype: string,
    reason: string,
    action: string,
    note: string,
  ): void;
}

/** Options of newEventRecorder. */
export interface EventRecorderOptions {
  /** reportingInstance; default `<reportingController>-<hostname>`, as `NewRecorder`. */
  reportingInstance?: string;
}

/** `EventBroadcaster.NewRecorder(scheme, reportingController)` of tools/events. */
export function newEventRecorder(
  broadcaster: EventBroadcaster,
  reportingController: string,
  options: EventRecorderOptions = {},
): EventRecorder {
  const reportingInstance = options.reportingInstance ?? `${reportingController}-${hostname()}`;
  return {
    eventf(regarding, related, eventtype, reason, action, note) {
      if (!validateEventType(eventtype, broadcaster.logger)) return;
      const now = broadcaster.clock.now();
      broadcaster.action(
        makeEvent(
          now,
          broadcaster.nextUnixNano(now),
          regarding,
          related,
          eventtype,
          reason,
          action,
          note,
          reportingController,
          reportingInstance,
        ),
      );
    },
  };
}

/** `recorderImpl.makeEvent`: one events/v1 Event, in `default` when `regarding` is cluster-scoped. */
function makeEvent(
  ms: number,
  unixNano: bigint,
  regarding: ObjectReference,
  related: ObjectReference | null,
  type: string,
  reason: string,
  action: string,
  note: string,
  reportingController: string,
  reportingInstance: string,
): Event {
  const t = formatTime(ms);
  return {
    metadata: {
      name: generateEventName(regarding.name ?? "", unixNano),
      namespace: regarding.namespace || "default",
    },
    involvedObject: regarding,
    ...(related ? { related } : {}),
    reason,
    message: note,
    type,
    action,
    // The deprecated core/v1 fields as well: the correlator counts repeats on them, and
    // `kubectl describe`/`get events` read them.
    source: { component: reportingController },
    firstTimestamp: t,
    lastTimestamp: t,
    count: 1,
    reportingComponent: reportingController,
    reportingInstance,
  };
}
