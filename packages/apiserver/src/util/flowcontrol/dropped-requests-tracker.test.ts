// dropped_requests_tracker_test.go: TestDroppedRequestsTracker and TestDroppedRequestsTrackerPLIndependent.
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { DroppedRequestsTracker } from "./dropped-requests-tracker.ts";

describe("DroppedRequestsTracker", () => {
  it("TestDroppedRequestsTracker", () => {
    // Not on a second boundary, as upstream's fake clock starts at time.Now().
    const clock = new FakeClock(Date.UTC(2026, 0, 1) + 437);
    const tracker = new DroppedRequestsTracker(clock);
    // secondsElapsed since the start, requests dropped then, the expected retryAfter after them.
    const steps: [secondsElapsed: number, droppedRequests: number, retryAfter: number][] = [
      [0, 5, 1],
      [1, 11, 2],
      // Check that we don't bump immediately after despite multiple dropped requests.
      [2, 1, 2],
      [3, 11, 4],
      [4, 1, 4],
      [7, 1, 8],
      [11, 1, 8],
      [15, 1, 7],
      [17, 1, 6],
      [21, 14, 5],
      [22, 1, 10],
    ];
    let elapsed = 0;
    const got: number[] = [];
    for (const [secondsElapsed, dropped] of steps) {
      clock.step((secondsElapsed - elapsed) * 1000);
      elapsed = secondsElapsed;
      for (let r = 0; r < dropped; r++) tracker.recordDroppedRequest("pl");
      got.push(tracker.getRetryAfter("pl"));
    }
    expect(got).toEqual(steps.map((s) => s[2]));
  });

  it("TestDroppedRequestsTrackerPLIndependent", () => {
    const clock = new FakeClock();
    const tracker = new DroppedRequestsTracker(clock);
    // Single dropped requests in many levels: no bump the next second.
    for (let i = 0; i < 10; i++) tracker.recordDroppedRequest(`pl-${i}`);
    clock.step(1000);
    for (let i = 0; i < 10; i++) {
      tracker.recordDroppedRequest(`pl-${i}`);
      expect(tracker.getRetryAfter(`pl-${i}`)).toBe(1);
    }
    // A few more in one level bump only that one.
    for (let i = 0; i < 5; i++) tracker.recordDroppedRequest("pl-0");
    clock.step(1000);
    for (let i = 0; i < 10; i++) {
      tracker.recordDroppedRequest(`pl-${i}`);
      expect(tracker.getRetryAfter(`pl-${i}`)).toBe(i === 0 ? 2 : 1);
    }
    expect(tracker.getRetryAfter("other-pl")).toBe(1);
  });
});
