/** recordToSink's retry rules (client-go record event.go recordEvent / TestWriteEventError) on a fake clock. */
import type { Event } from "@servicenet/api";
import { StatusError } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { eventually } from "@servicenet/testing";
import { describe, expect, it } from "vitest";
import { EventBroadcaster, eventUnixNano, generateEventName, type EventSink } from "./event.ts";
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
