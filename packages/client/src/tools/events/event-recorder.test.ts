/**
 * The events.k8s.io/v1 recorder (client-go tools/events event_recorder.go makeEvent and
 * event_broadcaster_test.go's repeats) on the shared broadcaster and correlator.
 */
import type { Event, ObjectReference } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import type { Logger } from "@servicenet/component-base/logs";
import { eventually } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { EventBroadcaster, type EventSink } from "../record/event.ts";
import { newEventRecorder } from "./event-recorder.ts";
import { FakeRecorder } from "./fake.ts";

/** A sink keeping what it was asked to write, with resourceVersions as a server gives them. */
function memorySink(): EventSink & { created: Event[]; patches: Record<string, unknown>[] } {
  let rv = 0;
  const sink = {
    created: [] as Event[],
    patches: [] as Record<string, unknown>[],
    create: async (e: Event) => {
      sink.created.push(e);
      return { ...e, metadata: { ...e.metadata, resourceVersion: String(++rv) } };
    },
    patch: async (e: Event, p: Record<string, unknown>) => {
      sink.patches.push(p);
      return { ...e, ...p, metadata: { ...e.metadata, resourceVersion: String(++rv) } };
    },
  };
  return sink;
}

const svc: ObjectReference = { kind: "Service", apiVersion: "v1", name: "web", namespace: "ns1", uid: "u1" };
const cidr: ObjectReference = { kind: "ServiceCIDR", apiVersion: "networking.k8s.io/v1", name: "kubernetes" };

let broadcaster: EventBroadcaster | undefined;
afterEach(() => broadcaster?.shutdown());

function start(clock = new FakeClock(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), logger?: Logger) {
  broadcaster = new EventBroadcaster({ clock, ...(logger ? { logger } : {}) });
  const sink = memorySink();
  broadcaster.startRecordingToSink(sink);
  return {
    sink,
    recorder: newEventRecorder(broadcaster, "ipallocator-repair-controller", { reportingInstance: "ipallocator-repair-controller-h1" }),
  };
}

describe("newEventRecorder (makeEvent)", () => {
  it("writes regarding, related, action and note as the core/v1 Event events.k8s.io/v1 converts to", async () => {
    const { sink, recorder } = start();
    recorder.eventf(
      svc,
      cidr,
      "Warning",
      "ClusterIPOutOfRange",
      "ClusterIPAllocation",
      "Cluster IP [IPv4]: 1.2.3.4 is not within any configured Service CIDR",
    );
    await eventually(() => sink.created.length === 1, { what: "the Event written" });
    expect(sink.created[0]).toEqual({
      metadata: { name: `web.${(BigInt(Date.UTC(2026, 0, 2, 3, 4, 5, 678)) * 1_000_000n).toString(16)}`, namespace: "ns1" },
      involvedObject: svc,
      related: cidr,
      reason: "ClusterIPOutOfRange",
      message: "Cluster IP [IPv4]: 1.2.3.4 is not within any configured Service CIDR",
      type: "Warning",
      action: "ClusterIPAllocation",
      source: { component: "ipallocator-repair-controller" },
      firstTimestamp: "2026-01-02T03:04:05Z",
      lastTimestamp: "2026-01-02T03:04:05Z",
      count: 1,
      reportingComponent: "ipallocator-repair-controller",
      reportingInstance: "ipallocator-repair-controller-h1",
    });
  });

  it("puts the Events of cluster-scoped objects in default, and a repeat becomes a patch of count", async () => {
    const clock = new FakeClock(0);
    const { sink, recorder } = start(clock);
    recorder.eventf(cidr, null, "Warning", "KubernetesDefaultServiceCIDRInconsistent", "", "x");
    await eventually(() => sink.created.length === 1, { what: "the first Event" });
    clock.step(2000);
    recorder.eventf(cidr, null, "Warning", "KubernetesDefaultServiceCIDRInconsistent", "", "x");
    await eventually(() => sink.patches.length === 1, { what: "the repeat" });
    expect(sink.created[0]?.metadata.namespace).toBe("default");
    expect(sink.created[0]).not.toHaveProperty("related");
    expect(sink.patches).toEqual([{ count: 2, lastTimestamp: "1970-01-01T00:00:02Z", message: "x" }]);
  });

  it("logs and drops an unsupported event type", async () => {
    const errors: string[] = [];
    const logger: Logger = { info() {}, error: (m, f) => errors.push(`${m} ${JSON.stringify(f)}`) };
    const { sink, recorder } = start(new FakeClock(0), logger);
    recorder.eventf(svc, null, "Critical", "R", "A", "m");
    recorder.eventf(svc, null, "Normal", "R", "A", "m");
    await eventually(() => sink.created.length === 1, { what: "the Normal Event" });
    expect(sink.created.map((e) => e.type)).toEqual(["Normal"]);
    expect(errors).toEqual(['Unsupported event type {"eventType":"Critical"}']);
  });

  it("defaults reportingInstance to <controller>-<hostname>", async () => {
    broadcaster = new EventBroadcaster({ clock: new FakeClock(0) });
    const sink = memorySink();
    broadcaster.startRecordingToSink(sink);
    newEventRecorder(broadcaster, "c").eventf(svc, null, "Normal", "R", "A", "m");
    await eventually(() => sink.created.length === 1, { what: "the Event" });
    expect(sink.created[0]?.reportingInstance).toMatch(/^c-.+/);
  });
});

describe("FakeRecorder (tools/events)", () => {
  it("keeps type, reason and note", () => {
    const r = new FakeRecorder();
    r.eventf(
      svc,
      null,
      "Warning",
      "ClusterIPNotAllocated",
      "ClusterIPAllocation",
      "Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing",
    );
    expect(r.events).toEqual(["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing"]);
  });
});
