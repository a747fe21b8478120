// After pkg/registry/authorization/*/rest_test.go and pkg/apis/authorization/validation/validation_test.go.
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import type { Attributes, Authorizer, RuleResolver } from "../../authorization/authorizer/interfaces.ts";
import {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
  type ReviewContext,
} from "./rest.ts";

const alice = { name: "alice", uid: "a", groups: ["system:authenticated"] };
const seen: Attributes[] = [];
const authorizer: Authorizer = {
  authorize: (a) => {
    seen.push(a);
    return a.verb === "list" ? { decision: "Allow", reason: "RBAC: allowed by x" } : { decision: "NoOpinion", reason: "" };
  },
};
const rules: RuleResolver = {
  rulesFor: () =>
    Promise.resolve({
      resourceRules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: [] }],
      nonResourceRules: [],
      incomplete: false,
    }),
};
const ctx = (o: Partial<ReviewContext> = {}): ReviewContext => ({ user: alice, namespace: "", authorizer, ruleResolver: rules, ...o });
const err = async (p: Promise<unknown>): Promise<StatusError> =>
  (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as StatusError;

describe("SelfSubjectAccessReview", () => {
  it("asks the authorizer as the requesting user, every version when none is given", async () => {
    const r = await selfSubjectAccessReview(
      { spec: { resourceAttributes: { namespace: "ns", verb: "list", resource: "services" } } },
      ctx(),
    );
    expect(r["status"]).toEqual({ allowed: true, reason: "RBAC: allowed by x" });
    expect(seen.at(-1)).toMatchObject({
      user: alice,
      verb: "list",
      namespace: "ns",
      resource: "services",
      apiVersion: "*",
      resourceRequest: true,
    });
    const no = await selfSubjectAccessReview({ spec: { nonResourceAttributes: { path: "/metrics", verb: "get" } } }, ctx());
    expect(no["status"]).toEqual({ allowed: false });
    expect(seen.at(-1)).toMatchObject({ verb: "get", path: "/metrics", resourceRequest: false });
  });
  it("TestValidateSelfSAR", async () => {
    expect((await err(selfSubjectAccessReview({ spec: {} }, ctx()))).message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: (*authorization.NonResourceAttributes)(nil): exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    expect(
      (await err(selfSubjectAccessReview({ spec: { resourceAttributes: {}, nonResourceAttributes: { path: "/x", verb: "get" } } }, ctx())))
        .message,
    ).toContain(
      'spec.nonResourceAttributes: Invalid value: &authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
    expect((await err(selfSubjectAccessReview({ metadata: { name: "x" }, spec: { resourceAttributes: {} } }, ctx()))).message).toContain(
      "metadata: Invalid value",
    );
  });
});

// validation_test.go TestValidateSARSpec / TestValidateSelfSAR: the selector attributes (AuthorizeWithSelectors).
describe("resourceAttributes.fieldSelector and labelSelector", () => {
  const spec = (resourceAttributes: Record<string, unknown>) => ({
    spec: { user: "bob", resourceAttributes: { verb: "list", ...resourceAttributes } },
  });
  it.each([
    [
      "field selector without rawSelector or requirements",
      { fieldSelector: {} },
      "spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required",
    ],
    [
      "label selector with both",
      { labelSelector: { rawSelector: "foo", requirements: [{ key: "a", operator: "Exists" }] } },
      'spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements',
    ],
  ])("%s", async (_, attrs, want) => {
    expect((await err(subjectAccessReview(spec(attrs), ctx()))).message).toContain(want);
    expect((await err(selfSubjectAccessReview(spec(attrs), ctx()))).message).toContain(want);
  });
  // validation.go validateFieldSelectorAttributes/validateLabelSelectorAttributes: each requirement
  // through metav1validation with AllowUnknownOperatorInRequirement, in the three access reviews.
  it.each([
    [
      "field requirement without key",
      { fieldSelector: { requirements: [{ key: "", operator: "In", values: ["a"] }] } },
      ["spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified"],
    ],
    [
      "field In without values, Exists with values",
      {
        fieldSelector: {
          requirements: [
            { key: "spec.nodeName", operator: "In" },
            { key: "spec.nodeName", operator: "Exists", values: ["n1"] },
          ],
        },
      },
      [
        "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        "spec.resourceAttributes.fieldSelector.requirements[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
    [
      "label requirement with a bad key and value",
      { labelSelector: { requirements: [{ key: "a b", operator: "NotIn", values: ["-x"] }] } },
      [
        'spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "a b": name part must consist of alphanumeric characters',
        'spec.resourceAttributes.labelSelector.requirements[0].values[0]: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters',
      ],
    ],
    [
      "label DoesNotExist with values",
      { labelSelector: { requirements: [{ key: "a", operator: "DoesNotExist", values: ["x"] }] } },
      [
        "spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
    ],
  ])("%s", async (_, attrs, want) => {
    const local = { metadata: { namespace: "ns" }, spec: { user: "bob", resourceAttributes: { namespace: "ns", verb: "list", ...attrs } } };
    for (const e of [
      await err(subjectAccessReview(spec(attrs), ctx())),
      await err(selfSubjectAccessReview(spec(attrs), ctx())),
      await err(localSubjectAccessReview(local, ctx({ namespace: "ns" }))),
    ]) {
      expect(e.status.code).toBe(422);
      for (const w of want) expect(e.message).toContain(w);
      expect(e.status.details?.causes).toHaveLength(want.length);
    }
  });
  it("lets a requirement's unknown operator through (AllowUnknownOperatorInRequirement)", async () => {
    const attrs = { fieldSelector: { requirements: [{ key: "spec.nodeName", operator: "Gt", values: ["1"] }] } };
    expect((await subjectAccessReview(spec(attrs), ctx()))["status"]).toMatchObject({ allowed: true });
  });
  it("accepts a raw selector or requirements", async () => {
    const ok = { fieldSelector: { rawSelector: "spec.nodeName=n1" }, labelSelector: { requirements: [{ key: "a", operator: "Exists" }] } };
    expect((await subjectAccessReview(spec(ok), ctx()))["status"]).toMatchObject({ allowed: true });
  });
});

// helpers.go ResourceAttributesFrom and BuildEvaluationError (AuthorizeWithSelectors).
describe("the selectors of resourceAttributes reach the authorizer", () => {
  const review = (resourceAttributes: Record<string, unknown>, o: Partial<ReviewContext> = {}) =>
    subjectAccessReview({ spec: { user: "bob", resourceAttributes: { verb: "list", resource: "pods", ...resourceAttributes } } }, ctx(o));
  it("parses raw selectors", async () => {
    const r = await review({ fieldSelector: { rawSelector: "spec.nodeName=n1" }, labelSelector: { rawSelector: "app in (web)" } });
    expect(r["status"]).toEqual({ allowed: true, reason: "RBAC: allowed by x" });
    expect(seen.at(-1)).toMatchObject({
      fieldSelectorRequirements: [{ field: "spec.nodeName", operator: "=", value: "n1" }],
      labelSelectorRequirements: [{ key: "app", operator: "in", values: ["web"] }],
    });
  });
  it("converts requirements, keeping the usable ones and reporting the others", async () => {
    const r = await review({
      fieldSelector: {
        requirements: [
          { key: "spec.nodeName", operator: "In", values: ["n1"] },
          { key: "x", operator: "Exists" },
        ],
      },
      labelSelector: { requirements: [{ key: "app", operator: "Gt", values: ["1"] }] },
    });
    expect(seen.at(-1)).toMatchObject({
      fieldSelectorRequirements: [{ field: "spec.nodeName", operator: "=", value: "n1" }],
      fieldSelectorParsingErr: "fieldSelectors do not yet support Exists",
      labelSelectorRequirements: [],
      labelSelectorParsingErr: '"Gt" is not a valid label selector operator',
    });
    expect(r["status"]).toMatchObject({
      evaluationError:
        "spec.resourceAttributes.fieldSelector partially ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error",
    });
  });
  it("drops them with the gate off", async () => {
    const r = await review({ labelSelector: { rawSelector: "a===b" } }, { authorizeWithSelectors: false });
    expect(r["status"]).toEqual({ allowed: true, reason: "RBAC: allowed by x" });
    expect(seen.at(-1)).not.toHaveProperty("labelSelectorParsingErr");
  });
});

describe("SubjectAccessReview and LocalSubjectAccessReview", () => {
  it("ask as the spec's user and require a user or group", async () => {
    await subjectAccessReview({ spec: { user: "bob", groups: ["g"], resourceAttributes: { verb: "list" } } }, ctx());
    expect(seen.at(-1)?.user).toEqual({ name: "bob", uid: "", groups: ["g"] });
    expect((await err(subjectAccessReview({ spec: { resourceAttributes: {} } }, ctx()))).message).toContain(
      'spec.user: Invalid value: "": at least one of user or group must be specified',
    );
  });
  it("TestValidateLocalSAR: namespaces must match, non-resource attributes are refused", async () => {
    const body = { metadata: { namespace: "ns" }, spec: { user: "bob", resourceAttributes: { namespace: "other", verb: "list" } } };
    expect((await err(localSubjectAccessReview(body, ctx({ namespace: "ns" })))).message).toContain(
      'spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    );
    const nr = { metadata: { namespace: "ns" }, spec: { user: "bob", nonResourceAttributes: { path: "/", verb: "get" } } };
    expect((await err(localSubjectAccessReview(nr, ctx({ namespace: "ns" })))).message).toContain("disallowed on this kind of request");
    const ok = { metadata: { namespace: "ns" }, spec: { user: "bob", resourceAttributes: { namespace: "ns", verb: "list" } } };
    expect((await err(localSubjectAccessReview(ok, ctx({ namespace: "elsewhere" })))).message).toBe(
      "spec.resourceAttributes.namespace must match namespace: elsewhere",
    );
    expect((await localSubjectAccessReview(ok, ctx({ namespace: "ns" })))["status"]).toMatchObject({ allowed: true });
  });
});

describe("SelfSubjectRulesReview", () => {
  it("lists the user's rules in the namespace and needs one", async () => {
    expect((await selfSubjectRulesReview({ spec: { namespace: "ns" } }, ctx()))["status"]).toEqual({
      resourceRules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }],
      nonResourceRules: [],
      incomplete: false,
    });
    expect((await err(selfSubjectRulesReview({ spec: {} }, ctx()))).message).toBe("no namespace on request");
  });
});
