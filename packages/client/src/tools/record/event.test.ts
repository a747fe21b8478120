/** recordToSink's retry rules (client-go record event.go recordEvent / TestWriteEventError) on a fake clock. */
import type { Event } from "@servicenet/api";
import { StatusError } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { eventually } from "@servicenet/testing";
import { describe, expect, it } from "vitest";
import { EventBroadcaster, generateEventName, type EventSink } from "./event.ts";
import { FakeRecorder } from "./fake.ts";

function scriptedSink(failures: Error[]): EventSink & { attempts: number } {
  const sink = {
    attempts: 0,
    create: async (e: Event) => {
      sink.attempts++;
      const f = failures.shift();
      if (f !== undefined) throw f;
      return { ...e, metadata: { ...e.metadata, resourceVersion: "1" } };
    },
    patch: async (e: Event) => e,
  };
  return sink;
}

const ref = { kind: "Service", apiVersion: "v1", name: "web", namespace: "ns" };

describe("recordToSink (TestWriteEventError)", () => {
  it.each([
    ["a connection error is retried", [new Error("connect ECONNREFUSED")], 2],
    ["a 400 from the server is not retried", [StatusError.badRequest("nope")], 1],
    ["an AlreadyExists is not retried", [new StatusError("AlreadyExists", "exists")], 1],
  ])("%s", async (_name, failures, attempts) => {
    const clock = new FakeClock(0);
    const sink = scriptedSink([...failures]);
    const b = new EventBroadcaster({ clock, sleepDurationMs: 1000 });
    b.startRecordingToSink(sink);
    b.newRecorder({ component: "c" }).event(ref, "Normal", "R", "m");
    await eventually(
      () => {
        clock.step(1000);
        return sink.attempts >= attempts;
      },
      { what: `${attempts} attempts` },
    );
    clock.step(20_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(sink.attempts).toBe(attempts);
    b.shutdown();
  });

  it("gives up after 12 tries", async () => {
    const clock = new FakeClock(0);
    const sink = scriptedSink(Array.from({ length: 20 }, () => new Error("down")));
    const b = new EventBroadcaster({ clock, sleepDurationMs: 1000 });
    b.startRecordingToSink(sink);
    b.newRecorder({ component: "c" }).event(ref, "Normal", "R", "m");
    await eventually(
      () => {
        clock.step(1000);
        return sink.attempts >= 12;
      },
      { what: "12 attempts" },
    );
    for (let i = 0; i < 5; i++) {
      clock.step(1000);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(sink.attempts).toBe(12);
    b.shutdown();
  });
});

describe("one stamp source for recorded and aggregated Events", () => {
  it("names every Event of one object in one millisecond differently, the aggregate too", async () => {
    const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
    const names: string[] = [];
    const sink: EventSink = {
      create: async (e) => {
        names.push(e.metadata.name ?? "");
        return { ...e, metadata: { ...e.metadata, resourceVersion: String(names.length) } };
      },
      patch: async (e) => e,
    };
    const b = new EventBroadcaster({ clock });
    b.startRecordingToSink(sink);
    const recorder = b.newRecorder({ component: "c" });
    // The 10th distinct message of one reason turns into a "(combined from similar events)" Event.
    for (let i = 0; i < 10; i++) recorder.event(ref, "Normal", "R", `m${i}`);
    await eventually(() => names.length === 10, { what: "10 Events written" });
    expect(new Set(names).size).toBe(10);
    b.shutdown();
  });
});

describe("generateEventName", () => {
  it("is <name>.<nanoseconds in hex>, or a UUID when that is no DNS subdomain", () => {
    expect(generateEventName("web", 0x1234n)).toBe("web.1234");
    expect(generateEventName("Bad_Name", 1n)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("FakeRecorder", () => {
  it("keeps type, reason and message, and annotations as Go prints a map", () => {
    const r = new FakeRecorder();
    r.event(ref, "Warning", "FailedToCreateEndpoint", "boom");
    r.annotatedEvent(ref, { b: "2", a: "1" }, "Normal", "R", "m");
    expect(r.events).toEqual(["Warning FailedToCreateEndpoint boom", "Normal R m map[a:1 b:2]"]);
  });
});
