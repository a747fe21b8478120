import { describe, expect, it } from "vitest";
import { makeNode, makePod, nodeInfos } from "../../../testing/wrappers.ts";
import { nodeName } from "./node-name.ts";

describe("TestNodeName", () => {
  const cases = [
    { name: "no host specified", want: "", result: null },
    { name: "host matches", want: "foo", result: null },
    {
      name: "host doesn't match",
      want: "bar",
      result: { code: "UnschedulableAndUnresolvable", reasons: ["node(s) didn't match the requested node name"], plugin: "NodeName" },
    },
  ];
  it.each(cases)("$name", ({ want, result }) => {
    const [info] = nodeInfos([makeNode("foo")]);
    expect(nodeName.filter(makePod("p", want ? { nodeName: want } : {}), info!)).toEqual(result);
  });
});
