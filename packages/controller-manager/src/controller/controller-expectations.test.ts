/** pkg/controller/controller_utils_test.go: TestControllerExpectations, TestUIDExpectations. */
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { ControllerExpectations, expectationsTimeoutMs, UIDTrackingControllerExpectations } from "./controller-expectations.ts";

describe("TestControllerExpectations", () => {
  it("is satisfied once adds and dels are observed, or after the timeout", () => {
    const clock = new FakeClock(0);
    const e = new ControllerExpectations(clock);
    expect(e.satisfied("ns/rc")).toBe(true);
    e.set("ns/rc", 2, 1);
    expect(e.satisfied("ns/rc")).toBe(false);
    e.creationObserved("ns/rc");
    e.deletionObserved("ns/rc");
    expect(e.get("ns/rc")).toEqual({ add: 1, del: 0 });
    expect(e.satisfied("ns/rc")).toBe(false);
    e.creationObserved("ns/rc");
    expect(e.satisfied("ns/rc")).toBe(true);
    e.raise("ns/rc", 1, 0);
    expect(e.satisfied("ns/rc")).toBe(false);
    clock.step(expectationsTimeoutMs + 1);
    expect(e.satisfied("ns/rc")).toBe(true);
    e.delete("ns/rc");
    expect(e.get("ns/rc")).toBeUndefined();
  });
});

describe("TestUIDExpectations", () => {
  it("counts each expected Pod's deletion once", () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock(0));
    e.expectDeletionsOf("ns/rs", ["ns/a", "ns/b"]);
    e.deletionObservedOf("ns/rs", "ns/a");
    e.deletionObservedOf("ns/rs", "ns/a");
    e.deletionObservedOf("ns/rs", "ns/other");
    expect(e.get("ns/rs")).toEqual({ add: 0, del: 1 });
    expect(e.satisfied("ns/rs")).toBe(false);
    e.deletionObservedOf("ns/rs", "ns/b");
    expect(e.satisfied("ns/rs")).toBe(true);
  });
});
