import { describe, expect, it } from "vitest";
import { makeNode, makePod, nodeInfos, requests } from "../../../testing/wrappers.ts";
import { nodeResourcesFit } from "./fit.ts";

// fit_test.go TestEnoughRequests: the Node has 10 milli-CPU and 20 bytes of memory, 32 Pods.
const node = makeNode("n", { allocatable: { cpu: "10m", memory: "20", pods: "32" } });
const used = (cpu: string, memory: string) => makePod("used", { nodeName: "n", ...requests({ cpu, memory }) });

describe("TestEnoughRequests", () => {
  const st = (code: string, ...reasons: string[]) => ({ code, reasons, plugin: "NodeResourcesFit" });
  const cases = [
    { name: "no resources requested always fits", pod: makePod("p"), existing: used("10m", "20"), want: null },
    {
      name: "too many resources fails",
      pod: makePod("p", requests({ cpu: "1m", memory: "1" })),
      existing: used("10m", "20"),
      want: st("Unschedulable", "Insufficient cpu", "Insufficient memory"),
    },
    { name: "both resources fit", pod: makePod("p", requests({ cpu: "1m", memory: "1" })), existing: used("5m", "5"), want: null },
    {
      name: "one resource memory fits",
      pod: makePod("p", requests({ cpu: "2m", memory: "1" })),
      existing: used("9m", "5"),
      want: st("Unschedulable", "Insufficient cpu"),
    },
    {
      name: "one resource cpu fits",
      pod: makePod("p", requests({ cpu: "1m", memory: "2" })),
      existing: used("5m", "19"),
      want: st("Unschedulable", "Insufficient memory"),
    },
    { name: "equal edge case", pod: makePod("p", requests({ cpu: "5m", memory: "1" })), existing: used("5m", "19"), want: null },
    {
      name: "requests exceeding the whole node are unresolvable",
      pod: makePod("p", requests({ cpu: "11m" })),
      existing: used("0", "0"),
      want: st("UnschedulableAndUnresolvable", "Insufficient cpu"),
    },
    {
      name: "init container fits because it's the max, not sum, of containers and init containers",
      pod: makePod("p", {
        ...requests({ cpu: "1m", memory: "1" }),
        initContainers: [{ name: "i", resources: { requests: { cpu: "3m", memory: "1" } } }],
      }),
      existing: used("8m", "19"),
      want: st("Unschedulable", "Insufficient cpu"),
    },
  ];
  it.each(cases)("$name", ({ pod, existing, want }) => {
    const [info] = nodeInfos([node], [existing]);
    expect(nodeResourcesFit.filter(pod, info!)).toEqual(want);
  });

  it("Too many pods", () => {
    const [info] = nodeInfos([makeNode("n", { allocatable: { cpu: "1", memory: "1Gi", pods: "1" } })], [makePod("x", { nodeName: "n" })]);
    expect(nodeResourcesFit.filter(makePod("p"), info!)).toEqual(st("Unschedulable", "Too many pods"));
  });
});

describe("TestLeastAllocatedScoringStrategy", () => {
  it("nothing scheduled, resources requested, differently sized nodes", () => {
    // least_allocated_test.go: cpu 3000m of 4000 / 6000, memory 5000 of 10000 / 10000 → 25+50 / 2 = 37, 50+50 / 2 = 50.
    const infos = nodeInfos([
      makeNode("node1", { allocatable: { cpu: "4000m", memory: "10000", pods: "32" } }),
      makeNode("node2", { allocatable: { cpu: "6000m", memory: "10000", pods: "32" } }),
    ]);
    const pod = makePod("p", {
      containers: [
        { name: "a", resources: { requests: { cpu: "1000m", memory: "2000" } } },
        { name: "b", resources: { requests: { cpu: "2000m", memory: "3000" } } },
      ],
    });
    expect(infos.map((i) => nodeResourcesFit.score(pod, i))).toEqual([37, 50]);
  });
});
