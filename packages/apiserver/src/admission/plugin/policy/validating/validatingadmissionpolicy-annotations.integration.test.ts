/**
 * Upstream's Test_ValidateAnnotationsAndWarnings (test/integration/apiserver/cel/
 * validatingadmissionpolicy_test.go), row for row: ConfigMap creates judged by policies with
 * auditAnnotations and with Warn and Audit validationActions, checked in the error, the warnings
 * and the audit Event of the create (level Request for configmaps, as upstream's audit policy).
 */
import { describe, expect, it } from "vitest";
import { newPolicyRuleEvaluator } from "../../../../audit/policy/checker.ts";
import { loadPolicyFromBytes } from "../../../../audit/policy/reader.ts";
import {
  configParamKind,
  makeBinding,
  makePolicy,
  VapHarness,
  withConfigMapMatch,
  withFailurePolicy,
  withParams,
  withValidations,
  withWaitReadyConstraintAndExpression,
  useVapHarness,
  type Binding,
  type Policy,
} from "./validatingadmissionpolicy-testing.ts";

const auditPolicy = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Request
    resources:
      - group: "" # core
        resources: ["configmaps"]
`;

type AuditEvent = Record<string, unknown> & { stage: string; verb: string; requestURI: string; annotations?: Record<string, string> };
const events: AuditEvent[] = [];
const backend = { processEvents: (...e: unknown[]) => events.push(...(e as AuditEvent[])), shutdown: () => undefined };
let h: VapHarness;
useVapHarness((x) => (h = x), { audit: { evaluator: newPolicyRuleEvaluator(loadPolicyFromBytes(auditPolicy)), backend } });

/** withAuditAnnotations */
function withAuditAnnotations(auditAnnotations: { key: string; valueExpression: string }[], p: Policy): Policy {
  p.spec.auditAnnotations = auditAnnotations;
  return p;
}
/** withValidationActions */
function withValidationActions(validationActions: string[], b: Binding): Binding {
  b.spec.validationActions = validationActions;
  return b;
}
/** withMatchNamespace: the binding judges only namespace `ns`. */
function withMatchNamespace(b: Binding, ns: string): Binding {
  b.spec.matchResources = {
    namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: [ns] }] },
  };
  return b;
}

const policyOf = (name: string, failurePolicy: "Fail" | "Ignore" = "Fail") =>
  withParams(configParamKind(), withFailurePolicy(failurePolicy, withConfigMapMatch(makePolicy(name))));
const endsWithK8s = [{ expression: "object.metadata.name.endsWith('k8s')" }];

const cases: {
  name: string;
  policy: Policy;
  binding: Binding;
  object: string;
  err?: string;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}[] = [
  {
    name: "with audit annotations",
    policy: withAuditAnnotations(
      [
        { key: "example-key", valueExpression: "'object name: ' + object.metadata.name" },
        { key: "exclude-key", valueExpression: "null" },
      ],
      policyOf("validate-audit-annotations"),
    ),
    binding: makeBinding("validate-audit-annotations-binding", "validate-audit-annotations", ""),
    object: "test1-k8s",
    auditAnnotations: { "validate-audit-annotations/example-key": "object name: test1-k8s" },
  },
  {
    name: "with audit annotations with invalid expression",
    // A runtime error: params is null.
    policy: withAuditAnnotations(
      [{ key: "example-key", valueExpression: "string(params.metadata.name)" }],
      policyOf("validate-audit-annotations-invalid"),
    ),
    binding: makeBinding("validate-audit-annotations-invalid-binding", "validate-audit-annotations-invalid", ""),
    object: "test2-k8s",
    err: `configmaps "test2-k8s" is forbidden: ValidatingAdmissionPolicy 'validate-audit-annotations-invalid' with binding 'validate-audit-annotations-invalid-binding' denied request: expression 'string(params.metadata.name)' resulted in error: no such key: metadata`,
  },
  {
    name: "with audit annotations with invalid expression and ignore failure policy",
    policy: withAuditAnnotations(
      [{ key: "example-key", valueExpression: "string(params.metadata.name)" }],
      policyOf("validate-audit-annotations-invalid-ignore", "Ignore"),
    ),
    binding: makeBinding("validate-audit-annotations-invalid-ignore-binding", "validate-audit-annotations-invalid-ignore", ""),
    object: "test3-k8s",
  },
  {
    name: "with warn validationActions",
    policy: withValidations(endsWithK8s, policyOf("validate-actions-warn")),
    binding: withValidationActions(["Warn"], makeBinding("validate-actions-warn-binding", "validate-actions-warn", "")),
    object: "test4-nope",
    warnings: [
      "Validation failed for ValidatingAdmissionPolicy 'validate-actions-warn' with binding 'validate-actions-warn-binding': failed expression: object.metadata.name.endsWith('k8s')",
    ],
  },
  {
    name: "with audit validationActions",
    policy: withValidations(endsWithK8s, policyOf("validate-actions-audit")),
    binding: withValidationActions(["Deny", "Audit"], makeBinding("validate-actions-audit-binding", "validate-actions-audit", "")),
    object: "test5-nope",
    err: `configmaps "test5-nope" is forbidden: ValidatingAdmissionPolicy 'validate-actions-audit' with binding 'validate-actions-audit-binding' denied request: failed expression: object.metadata.name.endsWith('k8s')`,
    auditAnnotations: {
      "validation.policy.admission.k8s.io/validation_failure": `[{"message":"failed expression: object.metadata.name.endsWith('k8s')","policy":"validate-actions-audit","binding":"validate-actions-audit-binding","expressionIndex":1,"validationActions":["Deny","Audit"]}]`,
    },
  },
];

/** The Go client's warning handler: the 299 warnings' texts, Endpoints' deprecation aside. */
const warningsOf = (header: string | null) =>
  [...(header ?? "").matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)]
    .map((m) => m[1]!.replace(/\\(.)/g, "$1"))
    .filter((w) => !w.includes("Endpoints is deprecated"));

describe("Test_ValidateAnnotationsAndWarnings", () => {
  cases.forEach(({ name, policy, binding, object, err, auditAnnotations, warnings }, i) =>
    it(name, async () => {
      const ns = `auditannotations-${i}`;
      await h.mustCreate("/api/v1/namespaces", { metadata: { name: ns } });
      await h.createPolicy(withWaitReadyConstraintAndExpression(policy));
      await h.createAndWaitReady(withMatchNamespace(binding, ns), undefined, ns);

      const r = await h.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: object, namespace: ns } });
      const code = err ? 422 : 201;
      expect(r.status, JSON.stringify(r.body)).toBe(code);
      if (err) {
        expect(r.body.message).toBe(err);
        expect(r.body.reason).toBe("Invalid");
      }
      expect(warningsOf(r.warnings)).toEqual(warnings ?? []);

      // checkAuditEvents: the create's ResponseComplete Event, its annotations filtered to the expected keys.
      const uri = `/api/v1/namespaces/${ns}/configmaps`;
      const ev = events.find((e) => e.requestURI === uri && e.stage === "ResponseComplete" && e.verb === "create");
      expect(ev).toMatchObject({ level: "Request", responseStatus: { code }, objectRef: { resource: "configmaps", namespace: ns } });
      const keys = Object.keys(auditAnnotations ?? {});
      const got = Object.fromEntries(Object.entries(ev?.annotations ?? {}).filter(([k]) => keys.includes(k)));
      expect(got).toEqual(auditAnnotations ?? {});
      if (!err) await h.s.request(`${uri}/${object}`, { method: "DELETE" });
    }),
  );
});
