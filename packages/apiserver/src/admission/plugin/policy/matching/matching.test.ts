/**
 * matchPolicy Exact and Equivalent, cases of k8s.io/apiserver/pkg/admission/plugin/webhook/generic/
 * webhook_test.go TestShouldCallHook and policy/matching/matching_test.go TestMatcher: deployments
 * served in apps/v1 and extensions/v1beta1 over one storage.
 */
import type { MatchResources } from "@servicenet/api/admissionregistration/v1";
import { describe, expect, it } from "vitest";
import type { ResourceDef } from "../../../../server/resource-def.ts";
import { servableResources } from "../../../../server/resources.ts";
import type { Attributes } from "../../../attributes.ts";
import { newEquivalentResourceMapper } from "../../../equivalent-resources.ts";
import { matches } from "./matching.ts";

const appsV1 = servableResources.find((d) => d.group === "apps" && d.resource === "deployments")!;
const extensions: ResourceDef = { ...appsV1, group: "extensions", version: "v1beta1" };
const mapper = newEquivalentResourceMapper(() => [appsV1, extensions]);

function attrs(subresource = ""): Attributes {
  return {
    operation: "CREATE",
    name: "d",
    namespace: "ns",
    resource: { group: "apps", version: "v1", resource: "deployments" },
    subresource,
    kind: { group: "apps", version: "v1", kind: "Deployment" },
    object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" } },
    dryRun: false,
    userInfo: { username: "u" },
  };
}

const constraints = (matchPolicy: string, apiGroups: string[], apiVersions: string[], resources = ["deployments"]): MatchResources => ({
  namespaceSelector: {},
  objectSelector: {},
  matchPolicy,
  resourceRules: [{ operations: ["*"], apiGroups, apiVersions, resources }],
});

describe("TestShouldCallHook / TestMatcher: matchPolicy", () => {
  it.each([
    {
      name: "exact match",
      m: constraints("Exact", ["apps"], ["v1"]),
      want: {
        resource: { group: "apps", version: "v1", resource: "deployments" },
        kind: { group: "apps", version: "v1", kind: "Deployment" },
      },
    },
    { name: "match policy: exact, no match", m: constraints("Exact", ["extensions"], ["v1beta1"]), want: undefined },
    {
      name: "match policy: equivalent, equivalent match",
      m: constraints("Equivalent", ["extensions"], ["v1beta1"]),
      want: {
        resource: { group: "extensions", version: "v1beta1", resource: "deployments" },
        kind: { group: "extensions", version: "v1beta1", kind: "Deployment" },
      },
    },
    {
      name: "match policy: equivalent, exact match first",
      m: constraints("Equivalent", ["*"], ["*"]),
      want: {
        resource: { group: "apps", version: "v1", resource: "deployments" },
        kind: { group: "apps", version: "v1", kind: "Deployment" },
      },
    },
    {
      name: "match policy: equivalent, subresource match with the subresource's kind",
      m: constraints("Equivalent", ["extensions"], ["v1beta1"], ["deployments/scale"]),
      subresource: "scale",
      want: {
        resource: { group: "extensions", version: "v1beta1", resource: "deployments" },
        kind: { group: "autoscaling", version: "v1", kind: "Scale" },
      },
    },
    { name: "match policy: equivalent, other group", m: constraints("Equivalent", ["batch"], ["*"]), want: undefined },
  ])("$name", ({ m, subresource, want }) => {
    expect(matches(m, attrs(subresource), {}, mapper)).toEqual(want);
  });

  it("excludeResourceRules exclude equivalent resources too", () => {
    const m = {
      ...constraints("Equivalent", ["apps"], ["v1"]),
      excludeResourceRules: constraints("Equivalent", ["extensions"], ["*"]).resourceRules,
    };
    expect(matches(m, attrs(), {}, mapper)).toBeUndefined();
    expect(matches({ ...m, matchPolicy: "Exact" }, attrs(), {}, mapper)).toBeDefined();
  });
});
