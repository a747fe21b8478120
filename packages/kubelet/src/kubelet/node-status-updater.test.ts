import type { Node } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { defaultSimulatedNodeOptions as o, simulatedNode } from "../nodestatus/setters.ts";
import { NodeStatusUpdater, nodeStatusHasChanged } from "./node-status-updater.ts";
import { rfc3339 } from "./status/time.ts";

const t0 = Date.parse("2026-01-01T00:00:00Z");

/** An updater over `count` registered Nodes whose patches land in the store, as the apiserver's. */
function setup(count: number) {
  const clock = new FakeClock(t0);
  const store = new Map<string, Node>();
  const patched: string[] = [];
  const patches: Record<string, unknown>[] = [];
  /** While set, the apiserver answers a patch only when it resolves (a slow apiserver). */
  const slow: { until: Promise<void> | undefined } = { until: undefined };
  const u = new NodeStatusUpdater({
    clock,
    get: (name) => store.get(name),
    owned: (i) => {
      const { conditions: _, ...rest } = simulatedNode(o, i, rfc3339(clock.now())).status ?? {};
      return rest;
    },
    async patchStatus(name, patch) {
      patched.push(name);
      patches.push(patch.status);
      await slow.until;
      const n = store.get(name) as Node;
      const addresses = patch.status["addresses"] as unknown[] | undefined;
      const status = { ...patch.status, ...(addresses ? { addresses: addresses.slice(0, -1) as never } : {}) };
      store.set(name, { ...n, status: { ...n.status, ...status } });
    },
  });
  for (let i = 0; i < count; i++) {
    const n = simulatedNode(o, i, rfc3339(t0));
    store.set(n.metadata.name ?? "", n);
    u.add(n.metadata.name ?? "", t0);
  }
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { clock, store, patched, patches, u, flush, slow };
}

const ready = (n: Node | undefined) => n?.status?.conditions?.find((c) => c.type === "Ready");

describe("NodeStatusUpdater (kubelet_node_status.go tryUpdateNodeStatus)", () => {
  it("patches nothing while nothing changed, then every nodeStatusReportFrequency moves the heartbeats only", async () => {
    const { clock, store, patched, u, flush } = setup(1);
    clock.step(290_000);
    expect(await u.sync(0)).toBe(false);
    clock.step(10_000);
    expect(await u.sync(0)).toBe(true);
    await flush();
    expect(patched).toEqual(["node-0"]);
    expect(ready(store.get("node-0"))).toEqual({
      type: "Ready",
      status: "True",
      reason: "KubeletReady",
      message: "kubelet is posting ready status",
      lastHeartbeatTime: "2026-01-01T00:05:00Z",
      lastTransitionTime: "2026-01-01T00:00:00Z",
    });
    expect(store.get("node-0")?.status?.conditions?.map((c) => [c.type, c.reason, c.lastHeartbeatTime])).toEqual([
      ["MemoryPressure", "KubeletHasSufficientMemory", "2026-01-01T00:05:00Z"],
      ["DiskPressure", "KubeletHasNoDiskPressure", "2026-01-01T00:05:00Z"],
      ["PIDPressure", "KubeletHasSufficientPID", "2026-01-01T00:05:00Z"],
      ["Ready", "KubeletReady", "2026-01-01T00:05:00Z"],
    ]);
    clock.step(10_000);
    expect(await u.sync(0)).toBe(false);
  });

  it("patches at the next update when the apiserver's copy differs (a condition, an address), transition time as the setters", async () => {
    const { clock, store, patches, u } = setup(1);
    const n = store.get("node-0") as Node;
    const conditions = (n.status?.conditions ?? []).map((c) =>
      c.type === "Ready" ? { ...c, status: "Unknown", reason: "NodeStatusUnknown" } : c,
    );
    store.set("node-0", { ...n, status: { ...n.status, conditions } });
    clock.step(10_000);
    expect(await u.sync(0)).toBe(true);
    expect(ready(store.get("node-0"))).toMatchObject({
      status: "True",
      reason: "KubeletReady",
      lastTransitionTime: "2026-01-01T00:00:10Z",
    });
    expect(await u.sync(0)).toBe(false);
    const m = store.get("node-0") as Node;
    store.set("node-0", { ...m, status: { ...m.status, addresses: [] } });
    expect(await u.sync(0)).toBe(true);
    expect(store.get("node-0")?.status?.addresses).toHaveLength(3);
    // Only what changed besides the conditions; the addresses replace the list (two InternalIPs).
    expect(patches.map((p) => Object.keys(p))).toEqual([["conditions"], ["conditions", "addresses"]]);
    expect((patches[1]?.["addresses"] as unknown[]).at(-1)).toEqual({ $patch: "replace" });
  });

  it("sends a Node's report once while the apiserver has not answered it (one syncNodeStatus loop per kubelet)", async () => {
    const { clock, store, patched, u, slow } = setup(1);
    const n = store.get("node-0") as Node;
    store.set("node-0", { ...n, status: { ...n.status, conditions: n.status?.conditions?.slice(1) } });
    let answer!: () => void;
    slow.until = new Promise<void>((r) => (answer = r));
    clock.step(10_000);
    const first = u.sync(0);
    // Three more update periods before the answer: the informer's copy still lacks the condition.
    const later: Promise<boolean>[] = [];
    for (let i = 0; i < 3; i++) {
      clock.step(10_000);
      later.push(u.sync(0));
    }
    expect(patched).toEqual(["node-0"]);
    answer();
    expect(await first).toBe(true);
    expect(await Promise.all(later)).toEqual([false, false, false]);
    expect(store.get("node-0")?.status?.conditions).toHaveLength(4);
    clock.step(10_000);
    expect(await u.sync(0)).toBe(false);
  });

  it("checks a tenth of the Nodes per tick: each once per nodeStatusUpdateFrequency, on one timer", async () => {
    const { clock, patched, u, flush } = setup(20);
    u.start();
    clock.step(300_000 - 1000);
    await flush();
    expect(patched).toEqual([]);
    clock.step(1000); // the tick at 300 s: Nodes 0 and 10
    await flush();
    expect(patched).toEqual(["node-0", "node-10"]);
    for (let i = 0; i < 9; i++) clock.step(1000);
    await flush();
    expect(patched).toHaveLength(20);
    u.stop();
    clock.step(300_000);
    await flush();
    expect(patched).toHaveLength(20);
  });
});

describe("nodeStatusHasChanged", () => {
  const s = simulatedNode(o, 0, "2026-01-01T00:00:00Z").status ?? {};
  const later = simulatedNode(o, 0, "2026-01-01T00:01:00Z").status ?? {};
  it.each([
    { name: "later transition times", a: s, b: later, want: true },
    {
      name: "heartbeats only",
      a: s,
      b: { ...s, conditions: s.conditions?.map((c) => ({ ...c, lastHeartbeatTime: "2026-01-01T00:09:00Z" })) },
      want: false,
    },
    {
      name: "a quantity written another way (Semantic.DeepEqual)",
      a: { ...s, capacity: { ...s.capacity, memory: "128Gi" } },
      b: s,
      want: false,
    },
    { name: "a different capacity", a: { ...s, capacity: { ...s.capacity, pods: "10" } }, b: s, want: true },
    { name: "a condition fewer", a: { ...s, conditions: s.conditions?.slice(1) }, b: s, want: true },
    {
      name: "extra empty nodeInfo fields on the apiserver's copy",
      a: { ...s, nodeInfo: { ...s.nodeInfo, machineID: "" } },
      b: s,
      want: false,
    },
  ])("$name: $want", ({ a, b, want }) => {
    expect(nodeStatusHasChanged(a as never, b as never)).toBe(want);
  });
});
