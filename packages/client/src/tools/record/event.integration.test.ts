/** The broadcaster writing through client-node's CoreV1Api to a fake apiserver (client-go record's event_test.go cases over HTTP). */
import { KubeConfig } from "@kubernetes/client-node";
import { FakeClock } from "@servicenet/component-base/clock";
import { eventually, FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { EventBroadcaster, getReference } from "./event.ts";
import { clientNodeEventSink } from "./sink.ts";

let server: FakeAPIServer | undefined;
let broadcaster: EventBroadcaster | undefined;
afterEach(async () => {
  broadcaster?.shutdown();
  await server?.stop();
});

async function setUp(clock: FakeClock) {
  server = new FakeAPIServer();
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
  broadcaster = new EventBroadcaster({ clock, sleepDurationMs: 10 });
  broadcaster.startRecordingToSink(clientNodeEventSink(kc));
  return broadcaster.newRecorder({ component: "endpointslice-controller" });
}

const svc = getReference({ metadata: { name: "web", namespace: "ns1", uid: "u-1", resourceVersion: "7" } }, "Service", "v1");

describe("EventBroadcaster over HTTP", () => {
  it("creates an Event, then patches count and lastTimestamp for a repeat (TestEventfNoNamespace / TestUpdateExpiredEvent shape)", async () => {
    const clock = new FakeClock(Date.parse("2026-03-01T10:00:00Z"));
    const recorder = await setUp(clock);
    recorder.event(svc, "Warning", "FailedToUpdateEndpointSlices", "Error updating Endpoint Slices for Service ns1/web: boom");
    const created = await eventually(() => server!.writes.find((w) => w.method === "POST"), { what: "the Event POST" });
    expect(created.body).toMatchObject({
      metadata: { namespace: "ns1" },
      involvedObject: { kind: "Service", apiVersion: "v1", name: "web", namespace: "ns1", uid: "u-1", resourceVersion: "7" },
      reason: "FailedToUpdateEndpointSlices",
      type: "Warning",
      count: 1,
      firstTimestamp: "2026-03-01T10:00:00Z",
      lastTimestamp: "2026-03-01T10:00:00Z",
      source: { component: "endpointslice-controller" },
      reportingComponent: "endpointslice-controller",
    });
    const name = (created.body as { metadata: { name: string } }).metadata.name;
    expect(name).toBe(`web.${(BigInt(Date.parse("2026-03-01T10:00:00Z")) * 1_000_000n).toString(16)}`);

    clock.step(5000);
    recorder.event(svc, "Warning", "FailedToUpdateEndpointSlices", "Error updating Endpoint Slices for Service ns1/web: boom");
    const patched = await eventually(() => server!.writes.find((w) => w.method === "PATCH"), { what: "the Event PATCH" });
    expect(patched.path).toContain(`/namespaces/ns1/events/${name}`);
    expect(patched.body).toEqual({
      count: 2,
      lastTimestamp: "2026-03-01T10:00:05Z",
      message: "Error updating Endpoint Slices for Service ns1/web: boom",
    });
    expect(server!.writes.filter((w) => w.method === "POST")).toHaveLength(1);
  });

  it("a cluster-scoped object's Event goes to default; an unknown type is dropped", async () => {
    const recorder = await setUp(new FakeClock(0));
    recorder.event({ kind: "Foo", name: "x" }, "Bogus", "R", "m");
    recorder.event(getReference({ metadata: { name: "kubernetes", uid: "c" } }, "ServiceCIDR", "networking.k8s.io/v1"), "Normal", "R", "m");
    const created = await eventually(() => server!.writes.find((w) => w.method === "POST"), { what: "the Event POST" });
    expect(created.path).toContain("/api/v1/namespaces/default/events");
    expect(server!.writes).toHaveLength(1);
  });

  it("re-creates the Event when the patch finds it gone (IsKeyNotFoundError)", async () => {
    const clock = new FakeClock(0);
    const recorder = await setUp(clock);
    recorder.event(svc, "Normal", "R", "m");
    await eventually(() => server!.writes.length === 1, { what: "the first POST" });
    server!.reset([]);
    clock.step(1000);
    recorder.event(svc, "Normal", "R", "m");
    await eventually(() => server!.writes.filter((w) => w.method === "POST").length === 2, { what: "the second POST" });
    expect(server!.writes.map((w) => w.method)).toEqual(["POST", "PATCH", "POST"]);
    expect(server!.writes[2]!.body).toMatchObject({ count: 2 });
  });
});
