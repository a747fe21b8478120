import { describe, expect, it } from "vitest";
import { makeNode, makePod, nodeInfos } from "../../../testing/wrappers.ts";
import { nodeUnschedulable } from "./node-unschedulable.ts";

describe("TestNodeUnschedulable", () => {
  const unschedulable = { code: "UnschedulableAndUnresolvable", reasons: ["node(s) were unschedulable"], plugin: "NodeUnschedulable" };
  const cases = [
    {
      name: "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
      unsched: true,
      tolerations: [],
      want: unschedulable,
    },
    { name: "Schedule pod to normal node", unsched: false, tolerations: [], want: null },
    {
      name: "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
      unsched: true,
      tolerations: [{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }],
      want: null,
    },
  ];
  it.each(cases)("$name", ({ unsched, tolerations, want }) => {
    const [info] = nodeInfos([makeNode("n", { spec: { unschedulable: unsched } })]);
    expect(nodeUnschedulable.filter(makePod("p", { tolerations }), info!)).toEqual(want);
  });
});
