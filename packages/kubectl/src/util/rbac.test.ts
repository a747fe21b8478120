/** kubectl pkg/util/rbac: BreakdownRule, CompactRules and SortableRuleSlice. */
import type { PolicyRule } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { breakdownRule, compactRules, policyRuleString, sortRules } from "./rbac.ts";

describe("BreakdownRule", () => {
  it.each<[string, PolicyRule, PolicyRule[]]>([
    [
      "groups x resources x verbs",
      { apiGroups: ["", "apps"], resources: ["pods"], verbs: ["get", "list"] },
      [
        { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
        { apiGroups: ["apps"], resources: ["pods"], verbs: ["get"] },
        { apiGroups: ["apps"], resources: ["pods"], verbs: ["list"] },
      ],
    ],
    [
      "resource names, one rule each",
      { apiGroups: [""], resources: ["configmaps"], resourceNames: ["a", "b"], verbs: ["get"] },
      [
        { apiGroups: [""], resources: ["configmaps"], verbs: ["get"], resourceNames: ["a"] },
        { apiGroups: [""], resources: ["configmaps"], verbs: ["get"], resourceNames: ["b"] },
      ],
    ],
    [
      "non-resource URLs combine with verbs only",
      { nonResourceURLs: ["/healthz", "/metrics"], verbs: ["get"] },
      [
        { nonResourceURLs: ["/healthz"], verbs: ["get"] },
        { nonResourceURLs: ["/metrics"], verbs: ["get"] },
      ],
    ],
    ["no apiGroups: nothing", { resources: ["secrets"], verbs: ["get"] }, []],
  ])("%s", (_name, rule, want) => {
    expect(breakdownRule(rule)).toEqual(want);
  });
});

describe("CompactRules", () => {
  it("merges simple rules that differ only by verb, each verb once, after the other rules", () => {
    const rules: PolicyRule[] = [
      { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
      { nonResourceURLs: ["/healthz"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods"], resourceNames: ["x"], verbs: ["delete"] },
      { apiGroups: [""], resources: ["pods"], resourceNames: ["x", "y"], verbs: ["update"] },
    ];
    expect(compactRules(rules)).toEqual([
      { nonResourceURLs: ["/healthz"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods"], resourceNames: ["x", "y"], verbs: ["update"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] },
      { apiGroups: [""], resources: ["pods"], resourceNames: ["x"], verbs: ["delete"] },
    ]);
    // The input is not modified.
    expect(rules[0]).toEqual({ apiGroups: [""], resources: ["pods"], verbs: ["get"] });
  });
});

describe("SortableRuleSlice", () => {
  it("String() is the generated one; rules sort by it bytewise (verbs first)", () => {
    expect(policyRuleString({ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] })).toBe(
      "&PolicyRule{Verbs:[get list],APIGroups:[],Resources:[pods],ResourceNames:[],NonResourceURLs:[],}",
    );
    const sorted = sortRules([
      { verbs: ["get"], apiGroups: ["b"], resources: ["x"] },
      { verbs: ["get", "list"], apiGroups: ["a"], resources: ["x"] },
      { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
      { verbs: ["get"], apiGroups: ["a"], resources: ["x"] },
    ]);
    expect(sorted.map((r) => `${r.verbs.join(",")}:${r.apiGroups?.[0]}`)).toEqual(["*:*", "get,list:a", "get:a", "get:b"]);
  });
});
