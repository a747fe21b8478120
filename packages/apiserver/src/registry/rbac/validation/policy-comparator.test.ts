/** pkg/registry/rbac/validation/policy_comparator_test.go, test for test. */
import type { PolicyRule } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { covers, nonResourceURLCovers } from "./policy-comparator.ts";

interface EscalationTest {
  ownerRules: PolicyRule[];
  servantRules: PolicyRule[];
  expectedCovered: boolean;
  expectedUncoveredRules: PolicyRule[];
}

const tests: Record<string, EscalationTest> = {
  TestCoversExactMatch: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["builds"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["builds"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversSubresourceWildcard: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["*/scale"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["foo/scale"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversMultipleRulesCoveringSingleRule: {
    ownerRules: [
      { apiGroups: ["v1"], verbs: ["delete"], resources: ["deployments"] },
      { apiGroups: ["v1"], verbs: ["delete"], resources: ["builds"] },
      { apiGroups: ["v1"], verbs: ["update"], resources: ["builds", "deployments"] },
    ],
    servantRules: [{ apiGroups: ["v1"], verbs: ["delete", "update"], resources: ["builds", "deployments"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversMultipleAPIGroupsCoveringSingleRule: {
    ownerRules: [
      { apiGroups: ["group1"], verbs: ["delete"], resources: ["deployments"] },
      { apiGroups: ["group1"], verbs: ["delete"], resources: ["builds"] },
      { apiGroups: ["group1"], verbs: ["update"], resources: ["builds", "deployments"] },
      { apiGroups: ["group2"], verbs: ["delete"], resources: ["deployments"] },
      { apiGroups: ["group2"], verbs: ["delete"], resources: ["builds"] },
      { apiGroups: ["group2"], verbs: ["update"], resources: ["builds", "deployments"] },
    ],
    servantRules: [{ apiGroups: ["group1", "group2"], verbs: ["delete", "update"], resources: ["builds", "deployments"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversSingleAPIGroupsCoveringMultiple: {
    ownerRules: [{ apiGroups: ["group1", "group2"], verbs: ["delete", "update"], resources: ["builds", "deployments"] }],
    servantRules: [
      { apiGroups: ["group1"], verbs: ["delete"], resources: ["deployments"] },
      { apiGroups: ["group1"], verbs: ["delete"], resources: ["builds"] },
      { apiGroups: ["group1"], verbs: ["update"], resources: ["builds", "deployments"] },
      { apiGroups: ["group2"], verbs: ["delete"], resources: ["deployments"] },
      { apiGroups: ["group2"], verbs: ["delete"], resources: ["builds"] },
      { apiGroups: ["group2"], verbs: ["update"], resources: ["builds", "deployments"] },
    ],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversMultipleRulesMissingSingleVerbResourceCombination: {
    ownerRules: [
      { apiGroups: ["v1"], verbs: ["delete", "update"], resources: ["builds", "deployments"] },
      { apiGroups: ["v1"], verbs: ["delete"], resources: ["pods"] },
    ],
    servantRules: [{ apiGroups: ["v1"], verbs: ["delete", "update"], resources: ["builds", "deployments", "pods"] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ apiGroups: ["v1"], verbs: ["update"], resources: ["pods"] }],
  },
  TestCoversAPIGroupStarCoveringMultiple: {
    ownerRules: [{ apiGroups: ["*"], verbs: ["get"], resources: ["roles"] }],
    servantRules: [{ apiGroups: ["group1", "group2"], verbs: ["get"], resources: ["roles"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversEnumerationNotCoveringAPIGroupStar: {
    ownerRules: [{ apiGroups: ["dummy-group"], verbs: ["get"], resources: ["roles"] }],
    servantRules: [{ apiGroups: ["*"], verbs: ["get"], resources: ["roles"] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ apiGroups: ["*"], verbs: ["get"], resources: ["roles"] }],
  },
  TestCoversAPIGroupStarCoveringStar: {
    ownerRules: [{ apiGroups: ["*"], verbs: ["get"], resources: ["roles"] }],
    servantRules: [{ apiGroups: ["*"], verbs: ["get"], resources: ["roles"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversVerbStarCoveringMultiple: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["*"], resources: ["roles"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["watch", "list"], resources: ["roles"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversEnumerationNotCoveringVerbStar: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get", "list", "watch", "create", "update", "delete", "exec"], resources: ["roles"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["*"], resources: ["roles"] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ apiGroups: ["v1"], verbs: ["*"], resources: ["roles"] }],
  },
  TestCoversVerbStarCoveringStar: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["*"], resources: ["roles"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["*"], resources: ["roles"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversResourceStarCoveringMultiple: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["*"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["resourcegroup:deployments"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversEnumerationNotCoveringResourceStar: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["roles", "resourcegroup:deployments"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["*"] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["*"] }],
  },
  TestCoversResourceStarCoveringStar: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["*"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["*"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversResourceNameEmptyCoveringMultiple: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["pods"], resourceNames: [] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["pods"], resourceNames: ["foo", "bar"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversEnumerationNotCoveringResourceNameEmpty: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["pods"], resourceNames: ["foo", "bar"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["pods"], resourceNames: [] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["pods"] }],
  },
  TestCoversNonResourceURLs: {
    ownerRules: [{ nonResourceURLs: ["/apis"], verbs: ["*"] }],
    servantRules: [{ nonResourceURLs: ["/apis"], verbs: ["*"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversNonResourceURLsStar: {
    ownerRules: [{ nonResourceURLs: ["*"], verbs: ["*"] }],
    servantRules: [{ nonResourceURLs: ["/apis", "/apis/v1", "/"], verbs: ["*"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversNonResourceURLsStarAfterPrefixDoesntCover: {
    ownerRules: [{ nonResourceURLs: ["/apis/*"], verbs: ["*"] }],
    servantRules: [{ nonResourceURLs: ["/apis", "/apis/v1"], verbs: ["get"] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ nonResourceURLs: ["/apis"], verbs: ["get"] }],
  },
  TestCoversNonResourceURLsStarAfterPrefix: {
    ownerRules: [{ nonResourceURLs: ["/apis/*"], verbs: ["*"] }],
    servantRules: [{ nonResourceURLs: ["/apis/v1/foo", "/apis/v1"], verbs: ["get"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversNonResourceURLsWithOtherFields: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["builds"], nonResourceURLs: ["/apis"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["builds"], nonResourceURLs: ["/apis"] }],
    expectedCovered: true,
    expectedUncoveredRules: [],
  },
  TestCoversNonResourceURLsWithOtherFieldsFailure: {
    ownerRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["builds"] }],
    servantRules: [{ apiGroups: ["v1"], verbs: ["get"], resources: ["builds"], nonResourceURLs: ["/apis"] }],
    expectedCovered: false,
    expectedUncoveredRules: [{ nonResourceURLs: ["/apis"], verbs: ["get"] }],
  },
};

describe("Covers", () => {
  it.each(Object.entries(tests))("%s", (_name, t) => {
    const { covered, uncovered } = covers(t.ownerRules, t.servantRules);
    expect(covered).toBe(t.expectedCovered);
    // rulesMatch: the same rules in any order.
    expect(uncovered).toHaveLength(t.expectedUncoveredRules.length);
    expect(uncovered).toEqual(expect.arrayContaining(t.expectedUncoveredRules));
  });
});

describe("TestNonResourceURLCovers", () => {
  it.each([
    ["*", "/api", true],
    ["/api", "/api", true],
    ["/apis", "/api", false],
    ["/api/v1", "/api", false],
    ["/api/v1", "/api/v1", true],
    ["/api/*", "/api/v1", true],
    ["/api/*", "/api", false],
    ["/api/*/*", "/api/v1", false],
    ["/*/v1/*", "/api/v1", false],
  ] as const)("nonResourceURLCovers(%j, %j) = %j", (owner, requested, want) => {
    expect(nonResourceURLCovers(owner, requested)).toBe(want);
  });
});
