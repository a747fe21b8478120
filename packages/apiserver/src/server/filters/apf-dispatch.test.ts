// The 429 of a request priority and fairness rejected carries its priority level's Retry-After
// from the dropped-requests tracker (priority-and-fairness.go: RecordDroppedRequest, then
// tooManyRequests with GetRetryAfter).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeClock } from "@servicenet/component-base/clock";
import { afterEach, describe, expect, it } from "vitest";
import type { FlowControl } from "../../util/flowcontrol/apf-filter.ts";
import { DroppedRequestsTracker } from "../../util/flowcontrol/dropped-requests-tracker.ts";
import { dispatchUnderAPF } from "./apf-dispatch.ts";

let server: Server | undefined;
afterEach(() => server?.close());

/** A dispatcher that rejects everything into the level `pl`. */
function rejecting(clock: FakeClock): FlowControl {
  const fc = {
    droppedRequests: new DroppedRequestsTracker(clock),
    handle: async (_d: unknown, _r: unknown, hooks: { note(c: unknown): void }) => {
      hooks.note({ flowSchema: { metadata: { uid: "fs-uid" } }, priorityLevel: { name: "pl", uid: "pl-uid" } });
      return { served: false, reason: "queue-full" };
    },
  };
  return fc as unknown as FlowControl;
}

describe("dispatchUnderAPF", () => {
  it("answers 429 with the level's Retry-After, which grows while the level keeps dropping", async () => {
    const clock = new FakeClock();
    const fc = rejecting(clock);
    server = createServer((req, res) => {
      void dispatchUnderAPF(fc, req, res, { name: "u", uid: "", groups: [], extra: {} }, "/api", new URLSearchParams(), undefined, () =>
        Promise.resolve(),
      );
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const retryAfter = async (): Promise<string | null> => {
      const r = await fetch(url);
      expect(r.status).toBe(429);
      expect(await r.text()).toBe("Too many requests, please try again later.\n");
      return r.headers.get("retry-after");
    };
    const first = [await retryAfter(), await retryAfter(), await retryAfter()];
    clock.step(1000);
    expect([...first, await retryAfter()]).toEqual(["1", "1", "1", "2"]);
  });
});
