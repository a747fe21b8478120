/** Toleration matching, after k8s.io/api/core/v1/toleration_test.go and pkg/apis/core/v1/helper/helpers_test.go. */
import { describe, expect, it } from "vitest";
import { getMatchingTolerations, toleratesTaint, type Toleration } from "./toleration.ts";

describe("toleratesTaint", () => {
  const taint = { key: "foo", value: "bar", effect: "NoExecute" };
  it.each<[string, Toleration, boolean]>([
    ["empty toleration tolerates nothing with a value (Equal on empty value)", {}, false],
    ["Exists without key tolerates everything", { operator: "Exists" }, true],
    ["Exists with the key", { key: "foo", operator: "Exists" }, true],
    ["Exists with another key", { key: "baz", operator: "Exists" }, false],
    ["Equal with the same value", { key: "foo", operator: "Equal", value: "bar" }, true],
    ["no operator means Equal", { key: "foo", value: "bar" }, true],
    ["Equal with another value", { key: "foo", operator: "Equal", value: "baz" }, false],
    ["matching effect", { key: "foo", operator: "Exists", effect: "NoExecute" }, true],
    ["other effect", { key: "foo", operator: "Exists", effect: "NoSchedule" }, false],
    ["unknown operator", { key: "foo", operator: "Gt", value: "bar" }, false],
  ])("TestTolerationToleratesTaint: %s", (_name, toleration, want) => {
    expect(toleratesTaint(toleration, taint)).toBe(want);
  });
});

describe("getMatchingTolerations", () => {
  const t1 = { key: "a", effect: "NoExecute" };
  const t2 = { key: "b", effect: "NoExecute" };
  const tolA: Toleration = { key: "a", operator: "Exists", tolerationSeconds: 1 };
  const tolAll: Toleration = { operator: "Exists" };
  it("no taints: all tolerated, none used", () => {
    expect(getMatchingTolerations([], [tolA])).toEqual({ allTolerated: true, used: [] });
  });
  it("taints without tolerations: not tolerated", () => {
    expect(getMatchingTolerations([t1], [])).toEqual({ allTolerated: false, used: [] });
  });
  it("the first matching toleration of each taint, in the taints' order", () => {
    expect(getMatchingTolerations([t1, t2], [tolA, tolAll])).toEqual({ allTolerated: true, used: [tolA, tolAll] });
  });
  it("one untolerated taint: nothing used", () => {
    expect(getMatchingTolerations([t1, t2], [tolA])).toEqual({ allTolerated: false, used: [] });
  });
});
