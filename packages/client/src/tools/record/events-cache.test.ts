// Mirrors client-go tools/record/events_cache_test.go (TestEventCorrelator, TestEventSpamFilter,
// TestEventAggregatorByReasonMessageFunc) on a clock that steps on every reading
// (testclocks.SimpleIntervalClock).
import type { Event, ObjectReference } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { generateEventName } from "./event.ts";
import { EventCorrelator, eventUnixNano, formatTime } from "./events-cache.ts";

const defaultAggregateMaxEvents = 10;
const defaultAggregateIntervalInSeconds = 600;
const defaultSpamBurst = 25;

/** testclocks.SimpleIntervalClock: every now() returns the last time plus `stepMs`. */
function intervalClock(stepMs: number) {
  let t = Date.parse("2026-01-01T00:00:00Z");
  return { now: () => (t += stepMs) };
}

const ref = (kind: string, name: string, namespace: string): ObjectReference => ({
  kind,
  name,
  namespace,
  uid: "C934D34AFB20242",
  apiVersion: "version",
  fieldPath: "spec.containers{mycontainer}",
});

function makeEvent(reason: string, message: string, involvedObject: ObjectReference): Event {
  return {
    metadata: {},
    reason,
    message,
    involvedObject,
    source: { component: "kubelet", host: "kublet.node1" },
    count: 1,
    type: "Normal",
  };
}

const repeat = (n: number, e: Event): Event[] => Array.from({ length: n }, () => structuredClone(e));
const unique = (n: number): Event[] =>
  Array.from({ length: n }, (_, i) => makeEvent(`reason-${i}`, `message-${i}`, ref("Pod", `pod-${i}`, `ns-${i}`)));
const similar = (n: number, e: Event, prefix: string): Event[] =>
  Array.from({ length: n }, (_, i) => ({ ...structuredClone(e), message: `${prefix}-${i}-${e.message}` }));
const withCount = (e: Event, count: number): Event => ({ ...e, count });

const pod = ref("Pod", "my-pod", "my-ns");
const firstEvent = makeEvent("first", "i am first", pod);
const duplicateEvent = makeEvent("duplicate", "me again", pod);
const uniqueEvent = makeEvent("unique", "snowflake", pod);
const similarEvent = makeEvent("similar", "similar message", { ...pod, fieldPath: "spec.containers{container1}" });
const aggregateEvent = makeEvent("similar", `(combined from similar events): ${similarEvent.message}`, similarEvent.involvedObject);
const similarButDifferentContainerEvent: Event = { ...similarEvent, involvedObject: { ...pod, fieldPath: "spec.containers{container2}" } };

interface Scenario {
  previousEvents: Event[];
  newEvent: Event;
  expectedEvent?: Event;
  intervalSeconds: number;
  expectedSkip?: boolean;
}

const scenarios: Record<string, Scenario> = {
  "create-a-single-event": { previousEvents: [], newEvent: firstEvent, expectedEvent: withCount(firstEvent, 1), intervalSeconds: 5 },
  "the-same-event-should-just-count": {
    previousEvents: repeat(1, duplicateEvent),
    newEvent: duplicateEvent,
    expectedEvent: withCount(duplicateEvent, 2),
    intervalSeconds: 5,
  },
  "the-same-event-should-just-count-even-if-more-than-aggregate": {
    previousEvents: repeat(defaultAggregateMaxEvents, duplicateEvent),
    newEvent: duplicateEvent,
    expectedEvent: withCount(duplicateEvent, defaultAggregateMaxEvents + 1),
    intervalSeconds: 30,
  },
  "the-same-event-is-spam-if-happens-too-frequently": {
    previousEvents: repeat(defaultSpamBurst + 1, duplicateEvent),
    newEvent: duplicateEvent,
    expectedSkip: true,
    intervalSeconds: 1,
  },
  "create-many-unique-events": {
    previousEvents: unique(30),
    newEvent: uniqueEvent,
    expectedEvent: withCount(uniqueEvent, 1),
    intervalSeconds: 5,
  },
  "similar-events-should-aggregate-event": {
    previousEvents: similar(defaultAggregateMaxEvents - 1, similarEvent, similarEvent.message!),
    newEvent: similarEvent,
    expectedEvent: withCount(aggregateEvent, 1),
    intervalSeconds: 5,
  },
  "similar-events-many-times-should-count-the-aggregate": {
    previousEvents: similar(defaultAggregateMaxEvents, similarEvent, similarEvent.message!),
    newEvent: similarEvent,
    expectedEvent: withCount(aggregateEvent, 2),
    intervalSeconds: 5,
  },
  "events-from-different-containers-do-not-aggregate": {
    previousEvents: repeat(1, similarButDifferentContainerEvent),
    newEvent: similarEvent,
    expectedEvent: withCount(similarEvent, 1),
    intervalSeconds: 5,
  },
  "similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate": {
    previousEvents: similar(defaultAggregateMaxEvents - 1, similarEvent, similarEvent.message!),
    newEvent: similarEvent,
    expectedEvent: withCount(similarEvent, 1),
    intervalSeconds: defaultAggregateIntervalInSeconds,
  },
};

describe("TestEventCorrelator", () => {
  it.each(Object.entries(scenarios))("%s", (_name, s) => {
    const clock = intervalClock(s.intervalSeconds * 1000);
    const correlator = new EventCorrelator({ clock });
    let rv = 0;
    for (const prev of s.previousEvents) {
      const t = formatTime(clock.now());
      const result = correlator.correlate({ ...prev, firstTimestamp: t, lastTimestamp: t });
      // What the server would return: the Event with a resourceVersion (and a name on create).
      if (!result.skip)
        correlator.updateState({ ...result.event!, metadata: { ...result.event!.metadata, resourceVersion: String(++rv) } });
    }
    const t = formatTime(clock.now());
    const result = correlator.correlate({ ...s.newEvent, firstTimestamp: t, lastTimestamp: t });
    expect(result.skip).toBe(s.expectedSkip ?? false);
    if (s.expectedSkip) return;
    const got = result.event!;
    const want = s.expectedEvent!;
    // validateEvent: reason, message, count, involvedObject and source as expected; a count above 1 is a patch.
    expect({ reason: got.reason, message: got.message, count: got.count, involvedObject: got.involvedObject, source: got.source }).toEqual({
      reason: want.reason,
      message: want.message,
      count: want.count,
      involvedObject: want.involvedObject,
      source: want.source,
    });
    // First and last timestamps differ exactly when the event was compressed into an earlier one.
    expect(got.firstTimestamp === got.lastTimestamp).toBe(want.count === 1);
    if ((want.count ?? 0) > 1) expect(result.patch).toEqual({ count: want.count, lastTimestamp: got.lastTimestamp, message: want.message });
    else expect(result.patch).toBeUndefined();
  });
});

describe("TestEventSpamFilter", () => {
  it("lets a burst of 25 through, then one per refill of 5 min", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const correlator = new EventCorrelator({ clock: { now: () => now } });
    const events = Array.from({ length: defaultSpamBurst + 1 }, (_, i) => makeEvent(`reason-${i}`, `message-${i}`, pod));
    const skipped = events.map((e) => correlator.correlate(e).skip);
    expect(skipped.slice(0, defaultSpamBurst)).toEqual(Array(defaultSpamBurst).fill(false));
    expect(skipped[defaultSpamBurst]).toBe(true);
    now += 300_000;
    expect(correlator.correlate(makeEvent("later", "one token", pod)).skip).toBe(false);
    expect(correlator.correlate(makeEvent("later", "none left", pod)).skip).toBe(true);
  });

  it("keys the bucket on the object: another object has its own", () => {
    const correlator = new EventCorrelator({ clock: { now: () => 0 } });
    for (let i = 0; i < defaultSpamBurst; i++) correlator.correlate(makeEvent(`reason-${i}`, "m", pod));
    expect(correlator.correlate(makeEvent("more", "m", pod)).skip).toBe(true);
    expect(correlator.correlate(makeEvent("r", "m", ref("Pod", "other", "my-ns"))).skip).toBe(false);
  });
});

describe("eventUnixNano", () => {
  it("gives two Events of one millisecond different stamps within it, a new millisecond its own", () => {
    const a = eventUnixNano(5_000_000, -1n);
    expect(a).toBe(5_000_000n * 1_000_000n);
    const b = eventUnixNano(5_000_000, a);
    expect(b).toBe(a + 1n);
    expect(generateEventName("web", a)).not.toBe(generateEventName("web", b));
    expect(eventUnixNano(5_000_001, b)).toBe(5_000_001n * 1_000_000n);
    // A clock set back (a fake one) is taken as it is.
    expect(eventUnixNano(4_000_000, b)).toBe(4_000_000n * 1_000_000n);
  });
});

describe("EventAggregate names", () => {
  it("gives the aggregates of two reasons of one object in one millisecond different names", () => {
    const correlator = new EventCorrelator({ clock: { now: () => Date.parse("2026-01-01T00:00:00Z") } });
    const aggregate = (reason: string): Event | undefined =>
      Array.from({ length: defaultAggregateMaxEvents }, (_, i) => correlator.correlate(makeEvent(reason, `m${i}`, pod)).event).at(-1);
    const [a, b] = [aggregate("A"), aggregate("B")];
    expect([a?.message, b?.message]).toEqual(["(combined from similar events): m9", "(combined from similar events): m9"]);
    expect(a?.metadata.name).not.toBe(b?.metadata.name);
  });
});
