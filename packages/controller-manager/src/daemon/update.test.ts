/** pkg/controller/daemon/update_test.go: TestDaemonSetUpdatesPods (maxUnavailable), TestDaemonSetUpdatesPodsWithMaxSurge, the unavailable-pod cases. */
import type { DaemonSet, Node, Pod } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { rollingUpdate } from "./update.ts";

const now = Date.parse("2025-01-01T01:00:00Z");
const ds = (maxUnavailable: number | string, maxSurge: number | string): DaemonSet => ({
  metadata: { name: "ds", namespace: "default", annotations: { "deprecated.daemonset.template.generation": "2" } },
  spec: {
    selector: { matchLabels: { app: "ds" } },
    template: { metadata: { labels: { app: "ds" } }, spec: { containers: [] } },
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable, maxSurge } },
  },
});
const nodes = (n: number): Node[] => Array.from({ length: n }, (_, i) => ({ metadata: { name: `n${i}` }, spec: {} }));
const pod = (name: string, hash: string, ready = true): Pod => ({
  metadata: { name, labels: { app: "ds", "controller-revision-hash": hash }, creationTimestamp: "2025-01-01T00:00:00Z" },
  spec: { containers: [], nodeName: name.split("-")[0] },
  status: {
    phase: "Running",
    conditions: [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: "2025-01-01T00:00:00Z" }],
  },
});
const oldOn = (n: number, ready = true) => new Map(Array.from({ length: n }, (_, i) => [`n${i}`, [pod(`n${i}-old`, "old", ready)]]));

describe("rollingUpdate", () => {
  it("maxUnavailable 2 of 5: deletes two old Pods at once", () => {
    expect(rollingUpdate(ds(2, 0), nodes(5), oldOn(5), "new", now)).toEqual({ podsToDelete: ["n0-old", "n1-old"], nodesNeedingPods: [] });
  });
  it("maxUnavailable 20% of 5 rounds up to 1; a Node already without a Pod counts as unavailable", () => {
    const m = oldOn(5);
    m.delete("n0");
    expect(rollingUpdate(ds("20%", 0), nodes(5), m, "new", now).podsToDelete).toEqual([]);
    expect(rollingUpdate(ds("20%", 0), nodes(5), oldOn(5), "new", now).podsToDelete).toEqual(["n0-old"]);
  });
  it("an unavailable old Pod is replaced whatever the budget", () => {
    const m = oldOn(3);
    m.set("n2", [pod("n2-old", "old", false)]);
    expect(rollingUpdate(ds(1, 0), nodes(3), m, "new", now).podsToDelete).toEqual(["n2-old", "n0-old"]);
  });
  it("maxSurge 1: a new Pod first, the old one deleted once the new one is available", () => {
    expect(rollingUpdate(ds(0, 1), nodes(3), oldOn(3), "new", now)).toEqual({ podsToDelete: [], nodesNeedingPods: ["n0"] });
    const m = oldOn(3);
    m.set("n0", [pod("n0-old", "old"), pod("n0-new", "new")]);
    // n0 is done (its new Pod is available), so the surge budget moves on to n1.
    expect(rollingUpdate(ds(0, 1), nodes(3), m, "new", now)).toEqual({ podsToDelete: ["n0-old"], nodesNeedingPods: ["n1"] });
    m.set("n0", [pod("n0-old", "old"), pod("n0-new", "new", false)]);
    expect(rollingUpdate(ds(0, 1), nodes(3), m, "new", now)).toEqual({ podsToDelete: [], nodesNeedingPods: [] });
  });
});
