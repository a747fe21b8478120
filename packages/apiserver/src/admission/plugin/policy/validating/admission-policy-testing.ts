/**
 * The policy side of upstream's TestPolicyAdmission (test/integration/apiserver/cel/
 * admission_policy_test.go): testSpec, createV1ValidatingPolicyAndBinding, and
 * policyExpectationHolder.verify's parsing of the warnings back into admission records.
 */
import { expect } from "vitest";
import type { TestResponse } from "../../../../server/testing.ts";
import { testClientUsername, splitGroupVersion, type AdmissionRecord } from "../../admission-matrix-testing.ts";

export const beginSentinel = "###___BEGIN_SENTINEL___###";
const recordSeparator = "###$$$###";

const fields = [
  "resourceGroup",
  "resourceVersion",
  "resourceResource",
  "subresource",
  "operation",
  "name",
  "namespace",
  "objectExists",
  "objectKind",
  "objectAPIVersion",
  "oldObjectExists",
  "oldObjectKind",
  "oldObjectAPIVersion",
  "optionsExists",
  "optionsKind",
  "optionsAPIVersion",
  "paramsPhase",
  "paramsVersion",
  "paramsConvert",
];

/** The variable each CSV column is read from (`namespace` is variables.namespaceName). */
const variableOf = (field: string) => (field === "namespace" ? "namespaceName" : field);

/** testSpec: paramKind ConfigMap, the variables, the always-failing validation, and the match conditions. */
export const testSpec = {
  paramKind: { apiVersion: "v1", kind: "ConfigMap" },
  variables: [
    { name: "shouldFail", expression: "true" },
    { name: "resourceGroup", expression: `has(request.resource.group) ? request.resource.group : ""` },
    { name: "resourceVersion", expression: `has(request.resource.version) ? request.resource.version : ""` },
    { name: "resourceResource", expression: `has(request.resource.resource) ? request.resource.resource : ""` },
    { name: "subresource", expression: `has(request.subResource) ? request.subResource : ""` },
    { name: "operation", expression: `has(request.operation) ? request.operation : ""` },
    { name: "name", expression: `has(request.name) ? request.name : ""` },
    { name: "namespaceName", expression: `has(request.namespace) ? request.namespace : ""` },
    { name: "objectExists", expression: `object != null ? "true" : "false"` },
    { name: "objectAPIVersion", expression: `(object != null && has(object.apiVersion)) ? object.apiVersion : ""` },
    { name: "objectKind", expression: `(object != null && has(object.kind)) ? object.kind : ""` },
    { name: "oldObjectExists", expression: `oldObject != null ? "true" : "false"` },
    { name: "oldObjectAPIVersion", expression: `(oldObject != null && has(oldObject.apiVersion)) ? oldObject.apiVersion : ""` },
    { name: "oldObjectKind", expression: `(oldObject != null && has(oldObject.kind)) ? oldObject.kind : ""` },
    { name: "optionsExists", expression: `(has(request.options) && request.options != null) ? "true" : "false"` },
    { name: "optionsKind", expression: `(has(request.options) && has(request.options.kind)) ? request.options.kind : ""` },
    {
      name: "optionsAPIVersion",
      expression: `(has(request.options) && has(request.options.apiVersion)) ? request.options.apiVersion : ""`,
    },
    { name: "paramsPhase", expression: "params.data.phase" },
    { name: "paramsVersion", expression: "params.data.version" },
    { name: "paramsConvert", expression: "params.data.convert" },
  ],
  validations: [
    {
      // Newlines are forbidden in messages, hence the record separator.
      expression: "!variables.shouldFail",
      messageExpression: `"${beginSentinel}${fields.join(",")}${recordSeparator}"+${fields.map((f) => `variables.${variableOf(f)}`).join(` + "," + `)}`,
    },
  ],
  matchConditions: [
    { name: "testclient-only", expression: `request.userInfo.username == "${testClientUsername}"` },
    {
      name: "ignore-test-config",
      expression: `object == null || !has(object.metadata) || !has(object.metadata.annotations) || !has(object.metadata.annotations.skipMatch) || object.metadata.annotations.skipMatch != "yes"`,
    },
  ],
};

/** A rule of matchConstraints.resourceRules. */
type Rule = { operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[] };

const arv1 = "/apis/admissionregistration.k8s.io/v1";

/**
 * createV1ValidatingPolicyAndBinding: test-policy-v1 (every resource, matchPolicy Exact) and
 * test-policy-v1-convert (`convertedRules`, Equivalent), each bound with Warn to a ConfigMap param
 * in "default" (skipped by the policies themselves) naming its version, phase and conversion; made
 * by `call`, the test client.
 */
export async function createV1ValidatingPolicyAndBinding(
  call: (method: string, path: string, body: unknown) => Promise<TestResponse>,
  convertedRules: Rule[],
): Promise<void> {
  const everything: Rule[] = [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"] }];
  for (const convert of [false, true]) {
    const name = `test-policy-v1${convert ? "-convert" : ""}`;
    const matchConstraints = convert
      ? { resourceRules: convertedRules, matchPolicy: "Equivalent" }
      : { resourceRules: everything, matchPolicy: "Exact" };
    const created = [
      await call("POST", `${arv1}/validatingadmissionpolicies`, { metadata: { name }, spec: { ...testSpec, matchConstraints } }),
      await call("POST", "/api/v1/namespaces/default/configmaps", {
        metadata: { name: `${name}-param`, namespace: "default", annotations: { skipMatch: "yes" } },
        data: { version: "v1", phase: "validation", convert: String(convert) },
      }),
      await call("POST", `${arv1}/validatingadmissionpolicybindings`, {
        metadata: { name: `${name}-binding` },
        spec: {
          policyName: name,
          validationActions: ["Warn"],
          paramRef: { name: `${name}-param`, namespace: "default", parameterNotFoundAction: "Deny" },
        },
      }),
    ];
    for (const r of created) expect(r.status, r.text).toBe(201);
  }
}

/** One webhookOptions: the policy a warning came from, as its params tell. */
export interface PolicyOptions {
  version: string;
  phase: string;
  converted: boolean;
}

/** The texts of a Warning header's values (`299 - "text"`, quotes and backslashes escaped). */
export function warningTexts(header: string): string[] {
  const out: string[] = [];
  for (const m of header.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) out.push(m[1]!.replace(/\\(.)/g, "$1"));
  return out;
}

/** policyExpectationHolder.verify: each warning with the sentinel, read back as a record and its params. */
export function parsePolicyWarnings(header: string): { record: AdmissionRecord; params: PolicyOptions }[] {
  const out: { record: AdmissionRecord; params: PolicyOptions }[] = [];
  for (const w of warningTexts(header)) {
    const at = w.indexOf(beginSentinel);
    if (at < 0) continue;
    const lines = w.slice(at + beginSentinel.length).split(recordSeparator);
    expect(lines.length, `incorrect # CSV elements in parsed warning: ${w}`).toBe(2);
    const [header_, values] = lines.map((l) => l.split(",")) as [string[], string[]];
    const data = Object.fromEntries(header_.map((k, i) => [k, values[i] ?? ""]));
    const gvk = (prefix: string) => {
      if (data[`${prefix}Exists`] !== "true") return null;
      const [group, version] = splitGroupVersion(data[`${prefix}APIVersion`]!);
      return { group, version, kind: data[`${prefix}Kind`]! };
    };
    const gv = data["resourceGroup"] === "" ? data["resourceVersion"] : `${data["resourceGroup"]}/${data["resourceVersion"]}`;
    const sub = data["subresource"] !== "" ? `/${data["subresource"]}` : "";
    const options = data["optionsExists"] === "true" ? { apiVersion: data["optionsAPIVersion"]!, kind: data["optionsKind"]! } : null;
    out.push({
      record: {
        gvr: `${gv}/${data["resourceResource"]}${sub}`,
        operation: data["operation"]!,
        name: data["name"]!,
        namespace: data["namespace"]!,
        object: gvk("object"),
        oldObject: gvk("oldObject"),
        options,
      },
      params: { version: data["paramsVersion"]!, phase: data["paramsPhase"]!, converted: data["paramsConvert"] === "true" },
    });
  }
  return out;
}
