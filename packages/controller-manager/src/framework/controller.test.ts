import { StatusError } from "@servicenet/api";
import type { Informer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import type { Logger } from "@servicenet/component-base/logs";
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { Controller } from "./controller.ts";

/** A logger at `verbosity` that records "level msg" lines. */
function recorder(verbosity: number): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, log: { verbosity, info: (m) => lines.push(`info ${m}`), error: (m) => lines.push(`error ${m}`) } };
}

const conflict = StatusError.conflict({ group: "networking.k8s.io", resource: "servicecidrs" }, "extra", "the object has been modified");

// The log level of handleErr: upstream logs a retry at V(2) (servicecidrs_controller.go processNext);
// a 409 from a stale cache is routine debug output; a dropped key is an error at any level.
describe("Controller.handleErr log levels", () => {
  it.each([
    ["a conflict at -v=0", conflict, 0, []],
    ["a conflict at -v=2", conflict, 2, []],
    ["a conflict at -v=4", conflict, 4, ["info Error syncing, retrying"]],
    ["another error at -v=0", new Error("boom"), 0, []],
    ["another error at -v=2", new Error("boom"), 2, ["info Error syncing, retrying"]],
  ])("%s", (_name, err, verbosity, want) => {
    const { log, lines } = recorder(verbosity);
    const queue = new RateLimitingQueue<string>("t");
    const c = new Controller({ name: "t", queue, sync: async () => {}, informers: [], logger: log });
    c.handleErr(err, "k");
    expect(lines).toEqual(want);
    queue.shutDown();
  });

  it("drops a key after maxRetries with an error line at -v=0", () => {
    const { log, lines } = recorder(0);
    const queue = new RateLimitingQueue<string>("t");
    const c = new Controller({ name: "t", queue, sync: async () => {}, informers: [], logger: log, maxRetries: 0 });
    c.handleErr(conflict, "k");
    expect(lines).toEqual(["error Dropping key out of the queue"]);
    queue.shutDown();
  });
});

// kube-controller-manager starts every controller on one context; `npm start` printed Node's
// MaxListenersExceededWarning once seven controllers each put two listeners on the one signal.
describe("Controller.run on a shared stop signal", () => {
  it("puts no listener on the signal however many controllers share it, and stops them all", async () => {
    const stop = new AbortController();
    const queues = Array.from({ length: 12 }, (_, i) => new RateLimitingQueue<string>(`c${i}`));
    // Informers that never sync: each controller waits in waitForCacheSync, listening for the abort.
    const never = { hasSynced: () => false } as unknown as Informer<unknown>;
    const runs = queues.map((queue, i) =>
      new Controller({ name: `c${i}`, queue, sync: async () => {}, informers: [never], syncPollMs: 1 }).run(stop.signal, 1),
    );
    // run() reaches waitForCacheSync's first poll synchronously, so its listeners are in place now.
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
    stop.abort();
    await Promise.all(runs);
    // A shut-down, empty queue hands out nothing: every controller's queue was shut down.
    expect(await Promise.all(queues.map((q) => q.get()))).toEqual(queues.map(() => undefined));
  });
});
