import type { Node, Pod } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { SchedulerCache } from "./backend/cache/cache.ts";
import { SchedulingQueue } from "./backend/queue/scheduling-queue.ts";
import { addAllEventHandlers } from "./eventhandlers.ts";
import { makeNode, makePod } from "./testing/wrappers.ts";

/** A scheduler's handlers on hand-driven informers, with `default/pending` waiting as unschedulable. */
async function setup() {
  const clock = new FakeClock();
  const pods = new MemoryInformer<Pod>();
  const nodes = new MemoryInformer<Node>([makeNode("n1")]);
  const queue = new SchedulingQueue({ clock });
  const responsibleForPod = (p: Pod) => (p.spec.nodeName ?? "") === "" && p.metadata.deletionTimestamp === undefined;
  addAllEventHandlers({ pods, nodes, cache: new SchedulerCache(), queue, responsibleForPod });
  pods.set(makePod("bound", { nodeName: "n1" }));
  pods.set(makePod("pending"));
  const popped = await queue.pop();
  expect(popped?.key).toBe("default/pending");
  queue.addUnschedulableIfNotPresent("default/pending", popped!.cycle, true);
  queue.done("default/pending");
  // Past the first attempt's backoff: a moved Pod goes straight to the activeQ.
  clock.step(1000);
  return { pods, nodes, queue };
}

type Env = Awaited<ReturnType<typeof setup>>;
const withStatus = (n: Node, status: Record<string, unknown>): Node => ({ ...n, status: { ...n.status, ...status } });

describe("addAllEventHandlers", () => {
  it.each<{ name: string; event: (e: Env) => void; moved: boolean }>([
    { name: "Node added", event: ({ nodes }) => nodes.set(makeNode("n2")), moved: true },
    {
      name: "Node heartbeat (conditions only)",
      event: ({ nodes }) => nodes.set(withStatus(makeNode("n1"), { conditions: [{ type: "Ready", status: "True" }] })),
      moved: false,
    },
    {
      name: "Node allocatable changed",
      event: ({ nodes }) => nodes.set(makeNode("n1", { allocatable: { cpu: "20", memory: "20", pods: "32" } })),
      moved: true,
    },
    { name: "Node labels changed", event: ({ nodes }) => nodes.set(makeNode("n1", { labels: { disk: "ssd" } })), moved: true },
    { name: "Node deleted", event: ({ nodes }) => nodes.remove("n1"), moved: false },
    { name: "assigned Pod deleted", event: ({ pods }) => pods.remove("default/bound"), moved: true },
    {
      name: "assigned Pod terminating",
      event: ({ pods }) =>
        pods.set({
          ...makePod("bound", { nodeName: "n1" }),
          metadata: { ...makePod("bound").metadata, deletionTimestamp: "2026-01-01T00:00:00Z" },
        }),
      moved: true,
    },
    {
      name: "the Pod's own status written",
      event: ({ pods }) => pods.set({ ...makePod("pending"), status: { conditions: [{ type: "PodScheduled", status: "False" }] } }),
      moved: false,
    },
    { name: "the Pod's labels changed", event: ({ pods }) => pods.set(makePod("pending", {}, { app: "web" })), moved: true },
  ])("$name", async ({ event, moved }) => {
    const env = await setup();
    event(env);
    expect(env.queue.isUnschedulable("default/pending")).toBe(!moved);
    expect(env.queue.pending().active).toBe(moved ? 1 : 0);
  });

  it.each<{ name: string; event: (e: Env) => void }>([
    { name: "bound", event: ({ pods }) => pods.set(makePod("pending", { nodeName: "n1" })) },
    { name: "deleted", event: ({ pods }) => pods.remove("default/pending") },
  ])("a Pod $name leaves the queue", async ({ event }) => {
    const env = await setup();
    event(env);
    expect(env.queue.isUnschedulable("default/pending")).toBe(false);
    expect(env.queue.pending().active).toBe(0);
  });
});
