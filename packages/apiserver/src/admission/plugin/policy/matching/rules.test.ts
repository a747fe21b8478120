/** Rule matching, cases of k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules_test.go. */
import type { NamedRuleWithOperations } from "@servicenet/api/admissionregistration/v1";
import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../attributes.ts";
import { namedRuleMatches } from "./rules.ts";

function attrs(resource: string, subresource: string, namespace: string, name = "x", group = ""): Attributes {
  return {
    operation: "CREATE",
    name,
    namespace,
    resource: { group, version: "v1", resource },
    subresource,
    kind: { group, version: "v1", kind: "K" },
    dryRun: false,
    userInfo: { username: "u" },
  };
}

const base = { operations: ["*"], apiGroups: ["*"], apiVersions: ["*"] };
const rule = (r: Partial<NamedRuleWithOperations>): NamedRuleWithOperations => ({ ...base, ...r });

const cases: { name: string; rule: NamedRuleWithOperations; a: Attributes; match: boolean }[] = [
  { name: "star matches a resource", rule: rule({ resources: ["*"] }), a: attrs("pods", "", "ns"), match: true },
  { name: "star does not match a subresource", rule: rule({ resources: ["*"] }), a: attrs("pods", "status", "ns"), match: false },
  { name: "star/star matches a subresource", rule: rule({ resources: ["*/*"] }), a: attrs("pods", "status", "ns"), match: true },
  { name: "res/star matches its subresources", rule: rule({ resources: ["pods/*"] }), a: attrs("pods", "exec", "ns"), match: true },
  { name: "res/star also matches the resource itself", rule: rule({ resources: ["pods/*"] }), a: attrs("pods", "", "ns"), match: true },
  {
    name: "star/sub matches that subresource of any resource",
    rule: rule({ resources: ["*/status"] }),
    a: attrs("services", "status", "ns"),
    match: true,
  },
  { name: "res/sub exact", rule: rule({ resources: ["pods/log"] }), a: attrs("pods", "status", "ns"), match: false },
  {
    name: "Namespaced scope: a namespaced object",
    rule: rule({ resources: ["*"], scope: "Namespaced" }),
    a: attrs("pods", "", "ns"),
    match: true,
  },
  {
    name: "Namespaced scope: not a Namespace",
    rule: rule({ resources: ["*"], scope: "Namespaced" }),
    a: attrs("namespaces", "", "ns"),
    match: false,
  },
  { name: "Cluster scope: a Namespace", rule: rule({ resources: ["*"], scope: "Cluster" }), a: attrs("namespaces", "", "ns"), match: true },
  {
    name: "Cluster scope: not a namespaced object",
    rule: rule({ resources: ["*"], scope: "Cluster" }),
    a: attrs("pods", "", "ns"),
    match: false,
  },
  {
    name: "apiGroups",
    rule: rule({ resources: ["*"], apiGroups: ["apps"] }),
    a: attrs("deployments", "", "ns", "x", "batch"),
    match: false,
  },
  { name: "resourceNames", rule: rule({ resources: ["*"], resourceNames: ["a"] }), a: attrs("pods", "", "ns", "b"), match: false },
];

describe("TestScope and TestResource", () => {
  it.each(cases)("$name", ({ rule: r, a, match }) => {
    expect(namedRuleMatches(r, a)).toBe(match);
  });
});
