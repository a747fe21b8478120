/** staging/src/k8s.io/apiserver/pkg/audit/policy/reader_test.go and validation_test.go, as errors of a policy file. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPolicyFromBytes, loadPolicyFromFile } from "./reader.ts";

const policyDefV1 = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    nonResourceURLs:
      - /healthz*
      - /version
  - level: RequestResponse
    users: ["tim"]
    userGroups: ["testers", "developers"]
    verbs: ["patch", "delete", "create"]
    resources:
      - group: ""
      - group: "rbac.authorization.k8s.io"
        resources: ["clusterroles", "clusterrolebindings"]
    namespaces: ["default", "kube-system"]
  - level: Metadata
`;

describe("TestParserV1", () => {
  it("reads every rule of a v1 policy", () => {
    const p = loadPolicyFromBytes(policyDefV1);
    expect(p.rules?.map((r) => r.level)).toEqual(["None", "RequestResponse", "Metadata"]);
    expect(p.rules?.[1]?.resources).toEqual([
      { group: "" },
      { group: "rbac.authorization.k8s.io", resources: ["clusterroles", "clusterrolebindings"] },
    ]);
  });

  it("reads JSON as well", () => {
    expect(loadPolicyFromBytes('{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}').rules).toHaveLength(1);
  });
});

describe("policy errors", () => {
  it.each([
    ["TestPolicyCntCheck: no rules", "apiVersion: audit.k8s.io/v1\nkind: Policy", "loaded illegal policy with 0 rules"],
    [
      "an unknown version",
      "apiVersion: audit.k8s.io/v2\nkind: Policy\nrules: [{level: None}]",
      "unknown group version field audit.k8s.io/v2, Kind=Policy in policy",
    ],
    [
      "no kind",
      "apiVersion: audit.k8s.io/v1\nrules: [{level: None}]",
      "failed decoding: Object 'Kind' is missing in 'apiVersion: audit.k8s.io/v1\nrules: [{level: None}]'",
    ],
    ["a rule without level", "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{verbs: [get]}]", "rules[0].level: Required value"],
    [
      "an unknown level",
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Everything}]",
      'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    ],
    [
      "a relative non-resource URL and a wildcard inside",
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: [logs, /a*b]}]",
      `[rules[0].nonResourceURLs[0]: Invalid value: "logs": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]`,
    ],
    [
      "resources and non-resource URLs",
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, namespaces: [a], nonResourceURLs: [/x]}]",
      `rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs`,
    ],
    [
      "a group with its version",
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, resources: [{group: rbac.authorization.k8s.io/v1}]}]",
      'rules[0].resources.group: Invalid value: "rbac.authorization.k8s.io/v1": a lowercase RFC 1123 subdomain',
    ],
    [
      "resourceNames without resources",
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, resources: [{resourceNames: [x]}]}]",
      `rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource`,
    ],
    [
      "an unknown stage",
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, omitStages: [Never]}]",
      'rules[0].omitStages[0]: Invalid value: "Never": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
  ])("%s", (_, text, message) => {
    expect(() => loadPolicyFromBytes(text)).toThrow(message);
  });
});

describe("loadPolicyFromFile", () => {
  it("names the file in its errors", () => {
    const dir = mkdtempSync(join(tmpdir(), "audit-policy-"));
    try {
      const file = join(dir, "policy.yaml");
      writeFileSync(file, "apiVersion: audit.k8s.io/v1\nkind: Policy\n");
      expect(() => loadPolicyFromFile(file)).toThrow(`loaded illegal policy with 0 rules: from file ${file}`);
      expect(() => loadPolicyFromFile(join(dir, "nope"))).toThrow(`failed to read file path "${join(dir, "nope")}"`);
      expect(() => loadPolicyFromFile("")).toThrow("file path not specified");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
