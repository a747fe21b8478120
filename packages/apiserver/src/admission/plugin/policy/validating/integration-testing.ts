/**
 * Helpers of the ValidatingAdmissionPolicy integration tests, after upstream's
 * test/integration/apiserver/cel/validatingadmissionpolicy_test.go: the policy and binding
 * builders (makePolicy with withPolicyMatch, withParams, withFailurePolicy, withValidations,
 * withVariables, withMatchConditions; makeBinding), withWaitReadyConstraintAndExpression,
 * createAndWaitReady (an Endpoints marker patched until the new binding denies it) and
 * cleanupPolicy, all over HTTP.
 */
import { randomBytes } from "node:crypto";
import { eventually } from "@servicenet/testing";
import { expect } from "vitest";
import type { TestServer } from "../../../../server/testing.ts";

export const arv1 = "/apis/admissionregistration.k8s.io/v1";
const markerMessage = "marker denied; policy is ready";
const markerAnnotation = "test-marker-name";

export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

export interface PolicyOptions {
  /** withPolicyMatch: every operation on `resource` of the core group, any version (default namespaces). */
  resource?: string;
  failurePolicy?: "Fail" | "Ignore";
  paramKind?: { apiVersion: string; kind: string };
  validations?: Validation[];
  variables?: { name: string; expression: string }[];
  matchConditions?: { name: string; expression: string }[];
}

export interface Policy {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, unknown> & { matchConstraints: { resourceRules: unknown[] }; validations: Validation[] };
}

export interface Binding {
  metadata: { name: string };
  spec: Record<string, unknown> & { policyName: string; paramRef?: Record<string, unknown> };
}

/** makePolicy and its with* decorators in one call. */
export function makePolicy(name: string, o: PolicyOptions = {}): Policy {
  return {
    metadata: { name },
    spec: {
      failurePolicy: o.failurePolicy ?? "Fail",
      ...(o.paramKind ? { paramKind: o.paramKind } : {}),
      matchConstraints: {
        resourceRules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["*"], resources: [o.resource ?? "namespaces"] }],
      },
      ...(o.variables ? { variables: o.variables } : {}),
      ...(o.matchConditions ? { matchConditions: o.matchConditions } : {}),
      validations: o.validations ?? [],
    },
  };
}

/** makeBinding: Deny, and a paramRef to `paramName` in default (parameterNotFoundAction Deny) when given. */
export function makeBinding(name: string, policyName: string, paramName = ""): Binding {
  const paramRef = paramName === "" ? {} : { paramRef: { name: paramName, namespace: "default", parameterNotFoundAction: "Deny" } };
  return { metadata: { name }, spec: { policyName, ...paramRef, validationActions: ["Deny"] } };
}

/**
 * withWaitReadyConstraintAndExpression: the policy also matches UPDATEs of an Endpoints object with
 * a random name, remembered in an annotation, and its first validation denies that object.
 */
export function withWaitReadyConstraintAndExpression(policy: Policy): Policy {
  const marker = `test-marker-${randomBytes(8).toString("hex")}`;
  const p = structuredClone(policy);
  p.metadata.annotations = { ...p.metadata.annotations, [markerAnnotation]: marker };
  p.spec.matchConstraints.resourceRules.push({
    resourceNames: [marker],
    operations: ["UPDATE"],
    apiGroups: [""],
    apiVersions: ["v1"],
    resources: ["endpoints"],
  });
  p.spec.validations = [{ expression: `object.metadata.name != '${marker}'`, message: markerMessage }, ...p.spec.validations];
  return p;
}

/** The answer to one request: its status, the Status (or object) it returned and its warnings. */
export interface Answer {
  status: number;
  body: { message?: string; reason?: string; code?: number; metadata?: { name?: string } };
  warnings: string | null;
}

/** Sends `body` as JSON (or as `contentType`) and decodes the answer. */
export async function call(s: TestServer, method: string, path: string, body?: unknown, contentType?: string): Promise<Answer> {
  const r = await s.send(method, path, body, contentType);
  return { status: r.status, body: r.text === "" ? {} : (r.json() as Answer["body"]), warnings: r.headers.get("warning") };
}

/** Creates `body` at `path`, which must succeed. */
export async function mustCreate(s: TestServer, path: string, body: unknown): Promise<void> {
  const r = await call(s, "POST", path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

/**
 * What tells that a policy judges the marker: its own denial, or (a policy whose matchConditions or
 * budget fail every request) the cost errors createAndWaitReadyNamespacedWithWarnHandler accepts.
 */
const readyMessages = [
  markerMessage,
  "validation failed due to running out of cost budget, no further validation rules will be run",
  "operation cancelled: actual cost limit exceeded",
];

/** Patches the policy's marker in `ns` with an empty JSON patch: whether the policy judges it. */
async function markerDenied(s: TestServer, marker: string, ns: string): Promise<boolean> {
  const r = await call(s, "PATCH", `/api/v1/namespaces/${ns}/endpoints/${marker}`, [], "application/json-patch+json");
  return readyMessages.some((m) => (r.body.message ?? "").includes(m)) || (r.warnings ?? "").includes(markerMessage);
}

async function markerOf(s: TestServer, policyName: string): Promise<string> {
  const r = await call(s, "GET", `${arv1}/validatingadmissionpolicies/${policyName}`);
  return (r.body as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.[markerAnnotation] ?? "test-marker";
}

/**
 * createAndWaitReadyNamespaced: creates the marker (with `matchLabels`) and the binding, and waits
 * until the binding denies the marker's update, i.e. until it judges requests.
 */
export async function createAndWaitReady(s: TestServer, binding: Binding, matchLabels?: Record<string, string>, ns = "default") {
  const marker = await markerOf(s, binding.spec.policyName);
  const path = `/api/v1/namespaces/${ns}/endpoints`;
  await mustCreate(s, path, { metadata: { name: marker, ...(matchLabels ? { labels: matchLabels } : {}) } });
  try {
    await mustCreate(s, `${arv1}/validatingadmissionpolicybindings`, binding);
    await eventually(() => markerDenied(s, marker, ns), { what: `binding ${binding.metadata.name} to be ready` });
  } finally {
    await call(s, "DELETE", `${path}/${marker}`);
  }
}

/** cleanupPolicy: deletes the policy and its binding and waits until the policy no longer judges. */
export async function cleanupPolicy(s: TestServer, policy: Policy, binding?: Binding): Promise<void> {
  const marker = policy.metadata.annotations?.[markerAnnotation] ?? "test-marker";
  if (binding) await call(s, "DELETE", `${arv1}/validatingadmissionpolicybindings/${binding.metadata.name}`);
  await call(s, "DELETE", `${arv1}/validatingadmissionpolicies/${policy.metadata.name}`);
  const path = `/api/v1/namespaces/default/endpoints`;
  await mustCreate(s, path, { metadata: { name: marker } });
  try {
    await eventually(async () => !(await markerDenied(s, marker, "default")), { what: `policy ${policy.metadata.name} to be gone` });
  } finally {
    await call(s, "DELETE", `${path}/${marker}`);
  }
}
