import { describe, expect, it } from "vitest";
import { warningTexts } from "./warnings.ts";

describe("warningTexts (client-go parseWarningHeaders)", () => {
  it.each<[string, string[], string[]]>([
    [
      "one",
      ["Warning", '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"'],
      ["v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"],
    ],
    ["escaped quotes", ["warning", '299 - "unknown field \\"spec.foo\\""'], ['unknown field "spec.foo"']],
    ["two in one value", ["Warning", '299 - "a", 299 - "b"'], ["a", "b"]],
    ["two header lines", ["Warning", '299 - "a"', "Content-Type", "application/json", "Warning", '299 - "b"'], ["a", "b"]],
    ["other codes ignored", ["Warning", '199 - "misc"'], []],
    ["no warnings", ["Content-Type", "application/json"], []],
  ])("%s", (_, raw, want) => expect(warningTexts(raw)).toEqual(want));
});
