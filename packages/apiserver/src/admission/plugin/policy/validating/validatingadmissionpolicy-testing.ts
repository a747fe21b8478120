/**
 * The helpers of upstream's test/integration/apiserver/cel/validatingadmissionpolicy_test.go
 * (makePolicy, withValidations, withParams, withPolicyMatch, withWaitReadyConstraintAndExpression,
 * makeBinding, createAndWaitReady, ...) over HTTP against the in-process server: policies are plain
 * admissionregistration.k8s.io/v1 objects, and a binding is in effect once a JSON patch of the
 * "test-marker" Endpoints is refused (or warned about) with the marker's message.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

export const arv1 = "/apis/admissionregistration.k8s.io/v1";
export const markerMessage = "marker denied; policy is ready";

type Obj = Record<string, unknown>;
export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
export interface Rule {
  apiGroups: string[];
  apiVersions: string[];
  operations: string[];
  resources: string[];
  resourceNames?: string[];
}
export interface Policy {
  metadata: { name: string };
  spec: {
    failurePolicy?: "Fail" | "Ignore";
    paramKind?: { apiVersion: string; kind: string };
    matchConstraints?: {
      resourceRules?: Rule[];
      excludeResourceRules?: Rule[];
      objectSelector?: LabelSelector;
      namespaceSelector?: LabelSelector;
      matchPolicy?: "Exact" | "Equivalent";
    };
    validations?: Validation[];
    auditAnnotations?: { key: string; valueExpression: string }[];
    variables?: { name: string; expression: string }[];
    matchConditions?: { name: string; expression: string }[];
  };
}
export interface Binding {
  metadata: { name: string };
  spec: { policyName: string; validationActions: string[]; paramRef?: Obj; matchResources?: Obj };
}

export const makePolicy = (name: string): Policy => ({ metadata: { name }, spec: {} });
export const configParamKind = () => ({ apiVersion: "v1", kind: "ConfigMap" });

export function withValidations(validations: Validation[], p: Policy): Policy {
  p.spec.validations = validations;
  return p;
}
export function withFailurePolicy(failurePolicy: "Fail" | "Ignore", p: Policy): Policy {
  p.spec.failurePolicy = failurePolicy;
  return p;
}
export function withParams(paramKind: { apiVersion: string; kind: string }, p: Policy): Policy {
  p.spec.paramKind = paramKind;
  return p;
}
/** withPolicyMatch: every operation on `resource` of the core group, any version. */
export function withPolicyMatch(resource: string, p: Policy): Policy {
  p.spec.matchConstraints = { resourceRules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["*"], resources: [resource] }] };
  return p;
}
export function withVariables(variables: { name: string; expression: string }[], p: Policy): Policy {
  p.spec.variables = variables;
  return p;
}
export function withMatchConditions(matchConditions: { name: string; expression: string }[], p: Policy): Policy {
  p.spec.matchConditions = matchConditions;
  return p;
}
/** withExcludePolicyMatch: every operation on `resource` of the core group is excluded. */
export function withExcludePolicyMatch(resource: string, p: Policy): Policy {
  (p.spec.matchConstraints ??= {}).excludeResourceRules = [
    { operations: ["*"], apiGroups: [""], apiVersions: ["*"], resources: [resource] },
  ];
  return p;
}
/** buildExistsSelector: every label in `labels` must exist. */
const existsSelector = (labels: string[]): LabelSelector => ({ matchExpressions: labels.map((key) => ({ key, operator: "Exists" })) });
/** withPolicyExistsLabels: the policy matches only objects carrying every label in `labels`. */
export function withPolicyExistsLabels(labels: string[], p: Policy): Policy {
  (p.spec.matchConstraints ??= {}).objectSelector = existsSelector(labels);
  return p;
}
/** withBindingExistsLabels: the binding matches the policy's resources, narrowed to objects carrying `labels`. */
export function withBindingExistsLabels(labels: string[], p: Policy, b: Binding): Binding {
  b.spec.matchResources = { ...p.spec.matchConstraints, objectSelector: existsSelector(labels) };
  return b;
}
export const withNamespaceMatch = (p: Policy) => withPolicyMatch("namespaces", p);
export const withConfigMapMatch = (p: Policy) => withPolicyMatch("configmaps", p);

/** The marker rule and validation every policy gets, so createAndWaitReady can tell it is in effect. */
export function withWaitReadyConstraintAndExpression(policy: Policy): Policy {
  const p = structuredClone(policy);
  const mc = (p.spec.matchConstraints ??= {});
  mc.resourceRules = [
    ...(mc.resourceRules ?? []),
    { resourceNames: ["test-marker"], operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["endpoints"] },
  ];
  p.spec.validations = [{ expression: "object.metadata.name != 'test-marker'", message: markerMessage }, ...(p.spec.validations ?? [])];
  return p;
}

/** makeBinding: validationActions Deny; a paramRef in "default" with parameterNotFoundAction Deny when `paramName` is set. */
export function makeBinding(name: string, policyName: string, paramName: string): Binding {
  const paramRef = paramName !== "" ? { name: paramName, namespace: "default", parameterNotFoundAction: "Deny" } : undefined;
  return { metadata: { name }, spec: { policyName, validationActions: ["Deny"], ...(paramRef ? { paramRef } : {}) } };
}

export const makeConfigParams = (name: string, data: Record<string, string>) => ({ metadata: { name }, data });

/** What tells that a binding judges the marker: its denial, or the cost errors of a policy that fails every request. */
const readyMessages = [
  markerMessage,
  "validation failed due to running out of cost budget, no further validation rules will be run",
  "operation cancelled: actual cost limit exceeded",
];

/** What a request answered: the Status fields the tests check, and the warnings. */
export interface Answer {
  status: number;
  body: { message?: string; reason?: string; code?: number; metadata?: { name?: string } };
  warnings: string | null;
}

/** One server shared by a test file; `cleanup()` after each test deletes what it made and waits until no binding judges. */
export class VapHarness {
  readonly #made: string[] = [];
  readonly s: TestServer;
  constructor(s: TestServer) {
    this.s = s;
  }

  async send(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<Answer> {
    const r = await this.s.send(method, path, body, contentType);
    return { status: r.status, body: r.json() as Answer["body"], warnings: r.headers.get("warning") };
  }
  post = (path: string, body: unknown) => this.send("POST", path, body);

  /** Creates `body` at `path` (201 expected) and deletes it in cleanup. */
  async mustCreate<T extends { metadata: { name: string } }>(path: string, body: T): Promise<void> {
    const r = await this.post(path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    this.#made.unshift(`${path}/${body.metadata.name}`);
  }
  createPolicy = (p: Policy) => this.mustCreate(`${arv1}/validatingadmissionpolicies`, p);
  createConfigMap = (cm: { metadata: { name: string } }, ns = "default") => this.mustCreate(`/api/v1/namespaces/${ns}/configmaps`, cm);

  /** A Namespace create: `name` ending in "-" is a generateName; fixed names are dry-run so that rows may repeat them. */
  createNamespace(name: string): Promise<Answer> {
    if (name.endsWith("-")) return this.send("POST", "/api/v1/namespaces", { metadata: { generateName: name } });
    return this.send("POST", "/api/v1/namespaces?dryRun=All", { metadata: { name } });
  }

  /** createAndWaitReadyNamespaced: creates the binding and waits until a patch of the marker is judged in `ns`. */
  async createAndWaitReady(binding: Binding, matchLabels?: Record<string, string>, ns = "default"): Promise<void> {
    const endpoints = `/api/v1/namespaces/${ns}/endpoints`;
    const marker = await this.post(endpoints, { metadata: { name: "test-marker", ...(matchLabels ? { labels: matchLabels } : {}) } });
    expect(marker.status, JSON.stringify(marker.body)).toBe(201);
    await this.mustCreate(`${arv1}/validatingadmissionpolicybindings`, binding);
    await eventually(
      async () => {
        const r = await this.send("PATCH", `${endpoints}/test-marker`, [], "application/json-patch+json");
        return (r.warnings ?? "").includes(markerMessage) || readyMessages.some((m) => (r.body.message ?? "").includes(m));
      },
      { what: `binding ${binding.metadata.name} to be in effect in ${ns}` },
    );
    await this.s.request(`${endpoints}/test-marker`, { method: "DELETE" });
  }

  /** Polls `probe` until it answers true (upstream's wait.PollImmediate over a create). */
  until = (probe: () => Promise<boolean>, what: string) => eventually(async () => (await probe()) || undefined, { what });

  async cleanup(): Promise<void> {
    for (const path of this.#made.splice(0)) await this.s.request(path, { method: "DELETE" });
    const probe = { metadata: { name: "test-marker" } };
    await eventually(
      async () => {
        // A binding still in effect may refuse the probe's create too (a policy matching all of core/v1).
        await this.post("/api/v1/namespaces/default/endpoints", probe);
        const r = await this.send("PATCH", "/api/v1/namespaces/default/endpoints/test-marker", [], "application/json-patch+json");
        // Endpoints carry their deprecation warning: only a policy's warning counts.
        return r.status === 200 && !(r.warnings ?? "").includes(markerMessage);
      },
      { what: "no binding to judge the marker" },
    );
    await this.s.request("/api/v1/namespaces/default/endpoints/test-marker", { method: "DELETE" });
  }
}

/**
 * The hooks upstream's tests share, registered in the calling file or describe: one in-process
 * server (started with `options`), the harness's objects removed after each test, the server
 * closed at the end. `set` receives the harness once the server is up.
 */
export function useVapHarness(set: (h: VapHarness) => void, options: Parameters<typeof startTestServer>[0] = {}): void {
  let h: VapHarness | undefined;
  beforeAll(async () => {
    h = new VapHarness(await startTestServer(options));
    set(h);
  });
  afterEach(async () => h?.cleanup());
  afterAll(async () => h?.s.close());
}
