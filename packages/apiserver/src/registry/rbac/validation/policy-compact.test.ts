/** pkg/registry/rbac/validation/policy_compact_test.go, plus CompactString (evaluation_helpers.go). */
import type { PolicyRule } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { covers } from "./policy-comparator.ts";
import { compactRules, compactString, isSimpleResourceRule, type SimpleResource } from "./policy-compact.ts";

const sorted = (rules: PolicyRule[]) => rules.map((r) => JSON.stringify(r)).sort();

describe("TestCompactRules", () => {
  const cases: Record<string, { rules: PolicyRule[]; expected: PolicyRule[] }> = {
    empty: { rules: [], expected: [] },
    simple: {
      rules: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds"] },
        { verbs: ["list"], apiGroups: [""], resources: ["builds"] },
        { verbs: ["update", "patch"], apiGroups: [""], resources: ["builds"] },
        { verbs: ["create"], apiGroups: ["extensions"], resources: ["daemonsets"] },
        { verbs: ["delete"], apiGroups: ["extensions"], resources: ["daemonsets"] },
        { verbs: ["patch"], apiGroups: ["extensions"], resources: ["daemonsets"], resourceNames: [""] },
        { verbs: ["get"], apiGroups: ["extensions"], resources: ["daemonsets"], resourceNames: ["foo"] },
        { verbs: ["list"], apiGroups: ["extensions"], resources: ["daemonsets"], resourceNames: ["foo"] },
        { verbs: ["educate"], apiGroups: [""], resources: ["dolphins"] },
        // nil verbs are preserved in non-merge cases: the pirates who don't do anything.
        { apiGroups: [""], resources: ["pirates"] } as PolicyRule,
        // Merging into a nil verbs list.
        { apiGroups: [""], resources: ["pods"] } as PolicyRule,
        { verbs: ["create"], apiGroups: [""], resources: ["pods"] },
      ],
      expected: [
        { verbs: ["create", "delete"], apiGroups: ["extensions"], resources: ["daemonsets"] },
        { verbs: ["patch"], apiGroups: ["extensions"], resources: ["daemonsets"], resourceNames: [""] },
        { verbs: ["get", "list"], apiGroups: ["extensions"], resources: ["daemonsets"], resourceNames: ["foo"] },
        { verbs: ["get", "list", "update", "patch"], apiGroups: [""], resources: ["builds"] },
        { verbs: ["educate"], apiGroups: [""], resources: ["dolphins"] },
        { apiGroups: [""], resources: ["pirates"] } as PolicyRule,
        { apiGroups: [""], resources: ["pods"], verbs: ["create"] },
      ],
    },
    "complex multi-group": {
      rules: [
        { verbs: ["get"], apiGroups: ["", "builds.openshift.io"], resources: ["builds"] },
        { verbs: ["list"], apiGroups: ["", "builds.openshift.io"], resources: ["builds"] },
      ],
      expected: [
        { verbs: ["get"], apiGroups: ["", "builds.openshift.io"], resources: ["builds"] },
        { verbs: ["list"], apiGroups: ["", "builds.openshift.io"], resources: ["builds"] },
      ],
    },
    "complex multi-resource": {
      rules: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds", "images"] },
        { verbs: ["list"], apiGroups: [""], resources: ["builds", "images"] },
      ],
      expected: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds", "images"] },
        { verbs: ["list"], apiGroups: [""], resources: ["builds", "images"] },
      ],
    },
    "complex named-resource": {
      rules: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds"], resourceNames: ["mybuild"] },
        { verbs: ["list"], apiGroups: [""], resources: ["builds"], resourceNames: ["mybuild2"] },
      ],
      expected: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds"], resourceNames: ["mybuild"] },
        { verbs: ["list"], apiGroups: [""], resources: ["builds"], resourceNames: ["mybuild2"] },
      ],
    },
    "complex non-resource": {
      rules: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds"], nonResourceURLs: ["/"] },
        { verbs: ["get"], apiGroups: [""], resources: ["builds"], nonResourceURLs: ["/foo"] },
      ],
      expected: [
        { verbs: ["get"], apiGroups: [""], resources: ["builds"], nonResourceURLs: ["/"] },
        { verbs: ["get"], apiGroups: [""], resources: ["builds"], nonResourceURLs: ["/foo"] },
      ],
    },
  };
  it.each(Object.entries(cases))("%s", (_name, tc) => {
    const original = structuredClone(tc.rules);
    const compacted = compactRules(tc.rules);
    expect(tc.rules).toEqual(original); // not mutated
    expect(covers(compacted, tc.rules).covered).toBe(true);
    expect(covers(tc.rules, compacted).covered).toBe(true);
    expect(sorted(compacted)).toEqual(sorted(tc.expected));
  });
});

describe("TestIsSimpleResourceRule", () => {
  const none: SimpleResource = { group: "", resource: "", resourceNameExist: false, resourceName: "" };
  const builds: SimpleResource = { ...none, resource: "builds" };
  it.each([
    ["simple, no verbs", { verbs: [], apiGroups: [""], resources: ["builds"] }, true, builds],
    ["simple, one verb", { verbs: ["get"], apiGroups: [""], resources: ["builds"] }, true, builds],
    [
      "simple, one empty resource name",
      { verbs: ["get"], apiGroups: [""], resources: ["builds"], resourceNames: [""] },
      true,
      { ...builds, resourceNameExist: true },
    ],
    [
      "simple, one resource name",
      { verbs: ["get"], apiGroups: [""], resources: ["builds"], resourceNames: ["foo"] },
      true,
      { ...builds, resourceNameExist: true, resourceName: "foo" },
    ],
    ["simple, multi verb", { verbs: ["get", "list"], apiGroups: [""], resources: ["builds"] }, true, builds],
    ["complex, empty", { verbs: [] }, false, none],
    ["complex, no group", { verbs: ["get"], apiGroups: [], resources: ["builds"] }, false, none],
    ["complex, multi group", { verbs: ["get"], apiGroups: ["a", "b"], resources: ["builds"] }, false, none],
    ["complex, no resource", { verbs: ["get"], apiGroups: [""], resources: [] }, false, none],
    ["complex, multi resource", { verbs: ["get"], apiGroups: [""], resources: ["builds", "images"] }, false, none],
    ["complex, resource names", { verbs: ["get"], apiGroups: [""], resources: ["builds"], resourceNames: ["foo", "bar"] }, false, none],
    ["complex, non-resource urls", { verbs: ["get"], apiGroups: [""], resources: ["builds"], nonResourceURLs: ["/"] }, false, none],
  ] as [string, PolicyRule, boolean, SimpleResource][])("%s", (_name, rule, simple, resource) => {
    expect(isSimpleResourceRule(rule)).toEqual({ simple, resource });
  });
});

describe("CompactString", () => {
  it("lists the set fields in upstream's order with Go's %q", () => {
    expect(compactString({ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"], resourceNames: ["a"] })).toBe(
      '{APIGroups:[""], Resources:["pods"], ResourceNames:["a"], Verbs:["get" "list"]}',
    );
    expect(compactString({ verbs: ["get"], nonResourceURLs: ["/healthz"] })).toBe('{NonResourceURLs:["/healthz"], Verbs:["get"]}');
  });
});
