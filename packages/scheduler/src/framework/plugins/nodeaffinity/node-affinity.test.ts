import { describe, expect, it } from "vitest";
import { makeNode, makePod, nodeInfos } from "../../../testing/wrappers.ts";
import { errReasonPod, nodeAffinity } from "./node-affinity.ts";

const required = (terms: unknown[]) => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
});
const fail = { code: "UnschedulableAndUnresolvable", reasons: [errReasonPod], plugin: "NodeAffinity" };

describe("TestNodeAffinity", () => {
  const cases: { name: string; spec: Record<string, unknown>; labels: Record<string, string>; nodeName?: string; want: unknown }[] = [
    { name: "missing labels", spec: { nodeSelector: { foo: "bar" } }, labels: {}, want: fail },
    { name: "same labels", spec: { nodeSelector: { foo: "bar" } }, labels: { foo: "bar" }, want: null },
    { name: "node labels are superset", spec: { nodeSelector: { foo: "bar" } }, labels: { foo: "bar", baz: "blah" }, want: null },
    { name: "node labels are subset", spec: { nodeSelector: { foo: "bar", baz: "blah" } }, labels: { foo: "bar" }, want: fail },
    {
      name: "Pod with matchExpressions using In operator that matches the existing node",
      spec: required([{ matchExpressions: [{ key: "foo", operator: "In", values: ["bar", "value2"] }] }]),
      labels: { foo: "bar" },
      want: null,
    },
    {
      name: "Pod with matchExpressions using Gt operator that matches the existing node",
      spec: required([{ matchExpressions: [{ key: "kernel-version", operator: "Gt", values: ["0204"] }] }]),
      labels: { "kernel-version": "0206" },
      want: null,
    },
    {
      name: "Pod with matchExpressions using NotIn operator that matches the existing node",
      spec: required([{ matchExpressions: [{ key: "mem-type", operator: "NotIn", values: ["DDR", "DDR2"] }] }]),
      labels: { "mem-type": "DDR3" },
      want: null,
    },
    {
      name: "Pod with matchExpressions using Exists operator that matches the existing node",
      spec: required([{ matchExpressions: [{ key: "GPU", operator: "Exists" }] }]),
      labels: { GPU: "NVIDIA-GRID-K1" },
      want: null,
    },
    {
      name: "Pod with affinity that don't match node's labels won't schedule onto the node",
      spec: required([{ matchExpressions: [{ key: "foo", operator: "In", values: ["value1", "value2"] }] }]),
      labels: { foo: "bar" },
      want: fail,
    },
    {
      name: "Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
      spec: required([]),
      labels: { foo: "bar" },
      want: fail,
    },
    {
      name: "Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
      spec: required([{}]),
      labels: { foo: "bar" },
      want: fail,
    },
    {
      name: "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      spec: required([
        { matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] },
        { matchExpressions: [{ key: "diffkey", operator: "In", values: ["wrong"] }] },
      ]),
      labels: { foo: "bar" },
      want: null,
    },
    {
      name: "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node",
      spec: { nodeSelector: { foo: "bar" }, ...required([{ matchExpressions: [{ key: "foo", operator: "Exists" }] }]) },
      labels: { foo: "bar" },
      want: null,
    },
    {
      name: "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
      spec: { nodeSelector: { foo: "bar" }, ...required([{ matchExpressions: [{ key: "foo", operator: "Exists" }] }]) },
      labels: { foo: "barrrrrr" },
      want: fail,
    },
    {
      name: "Pod with matchFields using In operator that matches the existing node",
      spec: required([{ matchFields: [{ key: "metadata.name", operator: "In", values: ["node1"] }] }]),
      labels: {},
      nodeName: "node1",
      want: null,
    },
    {
      name: "Pod with matchFields using In operator that does not match the existing node",
      spec: required([{ matchFields: [{ key: "metadata.name", operator: "In", values: ["node1"] }] }]),
      labels: {},
      nodeName: "node2",
      want: fail,
    },
    {
      name: "Pod with two terms: matchFields does not match, but matchExpressions matches",
      spec: required([
        { matchFields: [{ key: "metadata.name", operator: "In", values: ["node1"] }] },
        { matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] },
      ]),
      labels: { foo: "bar" },
      nodeName: "node2",
      want: null,
    },
    {
      name: "Pod with one term: both matchFields and matchExpressions match",
      spec: required([
        {
          matchFields: [{ key: "metadata.name", operator: "In", values: ["node1"] }],
          matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }],
        },
      ]),
      labels: { foo: "bar" },
      nodeName: "node1",
      want: null,
    },
  ];
  it.each(cases)("$name", ({ spec, labels, nodeName, want }) => {
    const node = makeNode(nodeName ?? "n", { labels });
    delete node.metadata.labels?.["kubernetes.io/hostname"];
    const [info] = nodeInfos([node]);
    expect(nodeAffinity.filter(makePod("p", spec), info!)).toEqual(want);
  });

  it("TestNodeAffinityPriority: all nodes are the same priority as NodeAffinity is nil / preferred weights normalized", () => {
    const pref = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 2, preference: { matchExpressions: [{ key: "foo", operator: "In", values: ["bar"] }] } },
            { weight: 4, preference: { matchExpressions: [{ key: "key", operator: "In", values: ["value"] }] } },
          ],
        },
      },
    };
    const infos = nodeInfos([
      makeNode("a", { labels: { foo: "bar" } }),
      makeNode("b", { labels: { key: "value" } }),
      makeNode("c", { labels: { foo: "bar", key: "value" } }),
      makeNode("d"),
    ]);
    const s = infos.map((i) => nodeAffinity.score(makePod("p", pref), i));
    nodeAffinity.normalize?.(s);
    expect(s).toEqual([33, 66, 100, 0]);
  });
});
