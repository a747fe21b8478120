/**
 * pkg/controller/daemon/daemon_controller_test.go TestNodeShouldRunDaemonPod (and the taint cases
 * of TestTaintedNode*), pkg/controller/daemon/util/daemonset_util_test.go
 * TestReplaceDaemonSetPodNodeNameNodeAffinity, TestGetTargetNodeName, TestIsPodUpdated.
 */
import type { DaemonSet, Node, Pod } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import {
  addOrUpdateDaemonPodTolerations,
  createPodTemplate,
  getTargetNodeName,
  isPodUpdated,
  nodeShouldRunDaemonPod,
  replaceDaemonSetPodNodeNameNodeAffinity,
} from "./daemonset-util.ts";

const ds = (spec: Record<string, unknown> = {}): DaemonSet => ({
  metadata: { name: "ds", namespace: "default", annotations: { "deprecated.daemonset.template.generation": "1" } },
  spec: {
    selector: { matchLabels: { app: "ds" } },
    template: { metadata: { labels: { app: "ds" } }, spec: { containers: [{ name: "c", image: "i" }], ...spec } },
  },
});
const node = (name: string, labels: Record<string, string> = {}, taints: NonNullable<Node["spec"]>["taints"] = []): Node => ({
  metadata: { name, labels },
  spec: { taints },
});

describe("TestNodeShouldRunDaemonPod", () => {
  it.each<[string, DaemonSet, Node, boolean, boolean]>([
    ["a plain Node", ds(), node("n1"), true, true],
    ["nodeName of another Node", ds({ nodeName: "n2" }), node("n1"), false, false],
    ["nodeName of this Node", ds({ nodeName: "n1" }), node("n1"), true, true],
    ["nodeSelector not matching", ds({ nodeSelector: { role: "edge" } }), node("n1"), false, false],
    ["nodeSelector matching", ds({ nodeSelector: { role: "edge" } }), node("n1", { role: "edge" }), true, true],
    [
      "required affinity not matching",
      ds({
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }],
            },
          },
        },
      }),
      node("n1", { zone: "b" }),
      false,
      false,
    ],
    [
      "an untolerated NoSchedule taint: not new, but keeps running",
      ds(),
      node("n1", {}, [{ key: "dedicated", value: "x", effect: "NoSchedule" }]),
      false,
      true,
    ],
    ["an untolerated NoExecute taint", ds(), node("n1", {}, [{ key: "dedicated", value: "x", effect: "NoExecute" }]), false, false],
    [
      "a tolerated NoExecute taint",
      ds({ tolerations: [{ key: "dedicated", operator: "Equal", value: "x", effect: "NoExecute" }] }),
      node("n1", {}, [{ key: "dedicated", value: "x", effect: "NoExecute" }]),
      true,
      true,
    ],
    [
      "the node condition taints are tolerated by every daemon Pod",
      ds(),
      node("n1", {}, [
        { key: "node.kubernetes.io/not-ready", effect: "NoExecute" },
        { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" },
      ]),
      true,
      true,
    ],
    ["a PreferNoSchedule taint does not matter", ds(), node("n1", {}, [{ key: "k", effect: "PreferNoSchedule" }]), true, true],
  ])("%s", (_n, set, n, shouldRun, shouldContinueRunning) => {
    expect(nodeShouldRunDaemonPod(n, set)).toEqual({ shouldRun, shouldContinueRunning });
  });
});

describe("TestReplaceDaemonSetPodNodeNameNodeAffinity", () => {
  const pinned = {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }],
    },
  };
  it("adds the node term to no affinity, replaces required terms and keeps preferred ones and pod affinity", () => {
    expect(replaceDaemonSetPodNodeNameNodeAffinity(undefined, "n1")).toEqual({ nodeAffinity: pinned });
    const preferred = [{ weight: 1, preference: { matchExpressions: [{ key: "a", operator: "Exists" }] } }];
    expect(
      replaceDaemonSetPodNodeNameNodeAffinity(
        {
          podAffinity: { x: 1 },
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }],
            },
            preferredDuringSchedulingIgnoredDuringExecution: preferred,
          },
        },
        "n1",
      ),
    ).toEqual({ podAffinity: { x: 1 }, nodeAffinity: { ...pinned, preferredDuringSchedulingIgnoredDuringExecution: preferred } });
  });
  it("getTargetNodeName reads it back, nodeName first", () => {
    const pod = (spec: Record<string, unknown>): Pod => ({ metadata: {}, spec: { containers: [], ...spec } });
    expect(getTargetNodeName(pod({ affinity: replaceDaemonSetPodNodeNameNodeAffinity(undefined, "n3") }))).toBe("n3");
    expect(getTargetNodeName(pod({ nodeName: "n2", affinity: replaceDaemonSetPodNodeNameNodeAffinity(undefined, "n3") }))).toBe("n2");
    expect(getTargetNodeName(pod({}))).toBeUndefined();
  });
});

describe("templates and updates", () => {
  it("AddOrUpdateDaemonPodTolerations adds network-unavailable for host-network Pods, without duplicates", () => {
    const spec = {
      containers: [],
      hostNetwork: true,
      tolerations: [{ key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" }],
    } as Pod["spec"];
    addOrUpdateDaemonPodTolerations(spec);
    expect(spec.tolerations?.map((t) => t.key)).toEqual([
      "node.kubernetes.io/not-ready",
      "node.kubernetes.io/unreachable",
      "node.kubernetes.io/disk-pressure",
      "node.kubernetes.io/memory-pressure",
      "node.kubernetes.io/pid-pressure",
      "node.kubernetes.io/unschedulable",
      "node.kubernetes.io/network-unavailable",
    ]);
  });
  it("CreatePodTemplate labels the generation and hash; IsPodUpdated matches either", () => {
    const t = createPodTemplate(ds().spec.template, 2, "abc");
    expect(t.metadata.labels).toEqual({ app: "ds", "pod-template-generation": "2", "controller-revision-hash": "abc" });
    const pod = (labels: Record<string, string>): Pod => ({ metadata: { labels }, spec: { containers: [] } });
    expect(isPodUpdated(pod({ "controller-revision-hash": "abc" }), "abc", 9)).toBe(true);
    expect(isPodUpdated(pod({ "pod-template-generation": "9" }), "abc", 9)).toBe(true);
    expect(isPodUpdated(pod({ "controller-revision-hash": "old", "pod-template-generation": "1" }), "abc", 2)).toBe(false);
  });
});
