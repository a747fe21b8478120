import { describe, expect, it } from "vitest";
import { makeNode, makePod, nodeInfos } from "../../../testing/wrappers.ts";
import { taintToleration, type Taint, type Toleration } from "./taint-toleration.ts";

const node = (name: string, taints: Taint[]) => makeNode(name, { spec: { taints } });
const pod = (tolerations: Toleration[]) => makePod("pod1", { tolerations });

describe("TestTaintTolerationFilter", () => {
  const untolerated = (t: Taint) => ({
    code: "UnschedulableAndUnresolvable",
    reasons: [`node(s) had untolerated taint {${t.key}: ${t.value ?? ""}}`],
    plugin: "TaintToleration",
  });
  const dedicated1: Taint = { key: "dedicated", value: "user1", effect: "NoSchedule" };
  const cases: { name: string; tolerations: Toleration[]; taints: Taint[]; want: unknown }[] = [
    {
      name: "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
      tolerations: [],
      taints: [dedicated1],
      want: untolerated(dedicated1),
    },
    {
      name: "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
      tolerations: [{ key: "dedicated", value: "user1", effect: "NoSchedule" }],
      taints: [dedicated1],
      want: null,
    },
    {
      name: "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      tolerations: [{ key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" }],
      taints: [dedicated1],
      want: untolerated(dedicated1),
    },
    {
      name: "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
      tolerations: [{ key: "foo", operator: "Exists", effect: "NoSchedule" }],
      taints: [{ key: "foo", value: "bar", effect: "NoSchedule" }],
      want: null,
    },
    {
      name: "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node",
      tolerations: [
        { key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" },
        { key: "foo", operator: "Exists", effect: "NoSchedule" },
      ],
      taints: [
        { key: "dedicated", value: "user2", effect: "NoSchedule" },
        { key: "foo", value: "bar", effect: "NoSchedule" },
      ],
      want: null,
    },
    {
      name: "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      tolerations: [{ key: "foo", operator: "Equal", value: "bar", effect: "PreferNoSchedule" }],
      taints: [{ key: "foo", value: "bar", effect: "NoSchedule" }],
      want: untolerated({ key: "foo", value: "bar", effect: "NoSchedule" }),
    },
    {
      name: "The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
      tolerations: [{ key: "foo", operator: "Equal", value: "bar" }],
      taints: [{ key: "foo", value: "bar", effect: "NoSchedule" }],
      want: null,
    },
    {
      name: "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      tolerations: [{ key: "dedicated", operator: "Equal", value: "user2", effect: "NoSchedule" }],
      taints: [{ key: "dedicated", value: "user1", effect: "PreferNoSchedule" }],
      want: null,
    },
    {
      name: "The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      tolerations: [],
      taints: [{ key: "dedicated", value: "user1", effect: "PreferNoSchedule" }],
      want: null,
    },
    {
      name: "a control-plane taint with an empty value prints as {key: }",
      tolerations: [],
      taints: [{ key: "node-role.kubernetes.io/control-plane", effect: "NoSchedule" }],
      want: untolerated({ key: "node-role.kubernetes.io/control-plane", effect: "NoSchedule" }),
    },
  ];
  it.each(cases)("$name", ({ tolerations, taints, want }) => {
    const [info] = nodeInfos([node("nodeA", taints)]);
    expect(taintToleration.filter(pod(tolerations), info!)).toEqual(want);
  });
});

describe("TestTaintTolerationScore", () => {
  const score = (tolerations: Toleration[], nodes: [string, Taint[]][]) => {
    const infos = nodeInfos(nodes.map(([n, t]) => node(n, t)));
    const s = infos.map((i) => taintToleration.score(pod(tolerations), i));
    taintToleration.normalize?.(s);
    return s;
  };
  const prefer = (key: string, value: string): Taint => ({ key, value, effect: "PreferNoSchedule" });
  it("node with taints tolerated by the pod, gets a higher score than those node with intolerable taints", () => {
    expect(
      score(
        [{ key: "foo", operator: "Equal", value: "bar", effect: "PreferNoSchedule" }],
        [
          ["nodeA", [prefer("foo", "bar")]],
          ["nodeB", [prefer("foo", "blah")]],
        ],
      ),
    ).toEqual([100, 0]);
  });
  it("the more intolerable taints a node has, the lower score it gets.", () => {
    const t = [{ key: "foo", operator: "Equal", value: "bar", effect: "PreferNoSchedule" }];
    expect(
      score(t, [
        ["nodeA", []],
        ["nodeB", [prefer("cpu-type", "arm64")]],
        ["nodeC", [prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")]],
      ]),
    ).toEqual([100, 50, 0]);
  });
  it("only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function", () => {
    const t = [
      { key: "cpu-type", operator: "Equal", value: "arm64", effect: "NoSchedule" },
      { key: "disk-type", operator: "Equal", value: "ssd", effect: "NoSchedule" },
    ];
    expect(
      score(t, [
        ["nodeA", []],
        ["nodeB", [{ key: "cpu-type", value: "arm64", effect: "NoSchedule" }]],
        ["nodeC", [prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")]],
      ]),
    ).toEqual([100, 100, 0]);
  });
});
