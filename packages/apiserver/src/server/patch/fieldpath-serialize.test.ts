import { describe, expect, it } from "vitest";
import { pathKey } from "./fieldpath-path.ts";
import { addPathsToFieldsV1, fromFieldsV1, toFieldsV1 } from "./fieldpath-serialize.ts";
import type { JSONObject } from "./json-value.ts";

describe("addPathsToFieldsV1 = toFieldsV1 of the union", () => {
  const tree: JSONObject = {
    "f:metadata": { "f:labels": { "f:a": {}, "f:c": {} } },
    "f:spec": { "f:ports": { ".": {}, 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:port": {} } }, "f:type": {} },
  };
  it.each<[string, string[][]]>([
    ["a label between two", [["f:metadata", "f:labels", "f:b"]]],
    ["a label after the last", [["f:metadata", "f:labels", "f:d"]]],
    ["a child of a member leaf", [["f:spec", "f:type", "f:x"]]],
    ["an intermediate becomes a member", [["f:metadata", "f:labels"]]],
    ["a list item ahead of field elements order", [["f:spec", "f:ports", 'k:{"port":81,"protocol":"TCP"}', "f:port"]]],
    ["a new top-level field", [["f:status", "f:loadBalancer"]]],
    ["a path already in the set", [["f:metadata", "f:labels", "f:a"]]],
    [
      "several at once",
      [
        ["f:metadata", "f:annotations", "f:z"],
        ["f:metadata", "f:annotations"],
        ["f:spec", "f:ports", "i:0"],
      ],
    ],
  ])("%s", (_n, paths) => {
    const keys = paths.map(pathKey);
    const want = toFieldsV1(new Set([...fromFieldsV1(tree), ...keys]));
    expect(JSON.stringify(addPathsToFieldsV1(tree, keys))).toBe(JSON.stringify(want));
  });
});
