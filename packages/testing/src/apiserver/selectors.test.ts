import { describe, expect, it } from "vitest";
import { fieldMatcher, labelMatcher, selectedName } from "./selectors.ts";

const obj = { metadata: { name: "web", namespace: "default", labels: { app: "web", tier: "front" } }, spec: { type: "ClusterIP" } };

describe("labelMatcher", () => {
  it.each<[string, boolean]>([
    ["", true],
    ["app=web", true],
    ["app==web", true],
    ["app!=web", false],
    ["app=web,tier=back", false],
    ["app in (db,web)", true],
    ["app notin (db,web)", false],
    ["tier", true],
    ["!tier", false],
    ["missing!=x", true],
    ["app in (db,web),tier", true],
  ])("%j -> %s", (selector, want) => {
    expect(labelMatcher(selector)(obj)).toBe(want);
  });
});

describe("fieldMatcher", () => {
  it.each<[string, boolean]>([
    ["metadata.name=web", true],
    ["metadata.name==web,metadata.namespace=default", true],
    ["spec.type!=ClusterIP", false],
    ["spec.missing=", true],
  ])("%j -> %s", (selector, want) => {
    expect(fieldMatcher(selector)(obj)).toBe(want);
  });

  it("pins the name of metadata.name=x", () => {
    expect(selectedName("metadata.name=web")).toBe("web");
    expect(selectedName("spec.type=x")).toBeUndefined();
  });
});
