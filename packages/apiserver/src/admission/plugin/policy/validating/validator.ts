/**
 * Evaluating one policy against one request (k8s.io/apiserver/pkg/admission/plugin/policy/validating/validator.go
 * Validate): matchConditions first (all must be true), then every validation in one cost budget,
 * each failed one worded by its messageExpression, its message or its expression.
 */
import type { Attributes } from "../../../attributes.ts";
import type { SynchronousAuthorize } from "../../../../authorization/authorizer/interfaces.ts";
import {
  AuthorizerValue,
  CELError,
  outOfBudgetMessage,
  runtimeCELCostBudget,
  type CostBudget,
  type Program,
} from "../../../../apiserver/cel/index.ts";
import type { CompiledPolicy } from "./compile.ts";

/** upstream PolicyDecisionAction. */
export type Action = "admit" | "deny";

export interface PolicyDecision {
  action: Action;
  /** "admit", "deny" or "error" (upstream PolicyDecisionEvaluation). */
  evaluation: "admit" | "deny" | "error";
  message: string;
  reason?: string;
}

export interface AuditAnnotationResult {
  key: string;
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

/** upstream MaxEvaluatedMessageExpressionSizeBytes. */
const maxEvaluatedMessageExpressionSizeBytes = 5 * 1024;

/** The `request` variable (admission/plugin/cel/filter.go CreateAdmissionRequest). */
export function admissionRequest(a: Attributes): Record<string, unknown> {
  return {
    kind: a.kind,
    resource: a.resource,
    subResource: a.subresource,
    requestKind: a.requestKind ?? a.kind,
    requestResource: a.requestResource ?? a.resource,
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: a.userInfo.username, uid: a.userInfo.uid ?? "", groups: a.userInfo.groups ?? [], extra: a.userInfo.extra ?? {} },
    dryRun: a.dryRun,
    options: a.options ?? null,
  };
}

/**
 * The `authorizer` variable, bound to the requesting user, with `authorizer.requestResource` the
 * request's own resource (library/authz.go NewAuthorizerVal and NewResourceAuthorizerVal, as
 * admission/plugin/cel/filter.go binds them).
 */
export function authorizerFor(a: Attributes, authorize: SynchronousAuthorize): AuthorizerValue {
  const u = a.userInfo;
  const user = { name: u.username, uid: u.uid ?? "", groups: u.groups ?? [], ...(u.extra ? { extra: u.extra } : {}) };
  const requested = a.requestResource ?? a.resource;
  return new AuthorizerValue(user, authorize, {
    group: requested.group,
    resource: requested.resource,
    subresource: a.subresource,
    namespace: a.namespace,
    name: a.name,
  });
}

type Outcome = { value: unknown } | { error: string };

function runCompiled(
  program: CompiledPolicy["validations"][number]["program"],
  vars: Record<string, unknown>,
  budget: CostBudget,
): Outcome {
  if (program.error) return { error: `compilation error: ${program.error.detail}` };
  return runProgram(program.program, vars, budget);
}

function runProgram(p: Program, vars: Record<string, unknown>, budget: CostBudget): Outcome {
  if (budget.remaining <= 0) return { error: outOfBudgetMessage };
  try {
    return { value: p.evaluate(vars, { budget }).value };
  } catch (e) {
    if (budget.remaining <= 0) return { error: outOfBudgetMessage };
    const detail = e instanceof CELError ? e.detail : String(e);
    return { error: `expression '${p.expression}' resulted in error: ${detail}` };
  }
}

/**
 * Defines `variables.<name>` as cel/composition.go's variableAccessor does: evaluated when an
 * expression first reads it (once per request, its cost charged to the policy's budget), its
 * failure the reading expression's error. `target` has no prototype, so that the activation's JSON
 * conversion hands it to the interpreter as it is instead of reading every getter.
 */
function defineLazyVariable(
  target: Record<string, unknown>,
  v: CompiledPolicy["variables"][number],
  vars: Record<string, unknown>,
  budget: CostBudget,
): void {
  let outcome: Outcome | undefined;
  const evaluate = (): Outcome => {
    if (v.program.error) return { error: `composited variable "${v.name}" fails to compile: ${v.program.error.detail}` };
    try {
      return { value: v.program.program.evaluate(vars, { budget }).value };
    } catch (e) {
      return { error: `composited variable "${v.name}" fails to evaluate: ${e instanceof CELError ? e.detail : String(e)}` };
    }
  };
  Object.defineProperty(target, v.name, {
    enumerable: true,
    get: () => {
      outcome ??= evaluate();
      if ("error" in outcome) throw new Error(outcome.error);
      return outcome.value;
    },
  });
}

/** A messageExpression's result, when it is a usable one-line string (validator.go). */
function evaluatedMessage(o: Outcome | undefined): string {
  if (o === undefined || !("value" in o) || typeof o.value !== "string") return "";
  const m = o.value.trim();
  return m.length > maxEvaluatedMessageExpressionSizeBytes || m.includes("\n") ? "" : m;
}

/**
 * Validates `a` with the compiled policy; `params` and `namespaceObject` as the plugin resolved
 * them. `failurePolicy` decides what an error does ("Fail" denies, "Ignore" admits). Without
 * `authorize` the `authorizer` variable is unbound, as filter.go leaves it without an authorizer.
 * `beginExpression` is told where each top-level expression starts (see CachingAuthorizer).
 */
export function validate(
  policy: CompiledPolicy,
  a: Attributes,
  params: unknown,
  namespaceObject: unknown,
  failurePolicy: string,
  authorize?: SynchronousAuthorize,
  beginExpression?: () => void,
): ValidateResult {
  const onError: Action = failurePolicy === "Ignore" ? "admit" : "deny";
  const budget: CostBudget = { remaining: runtimeCELCostBudget };
  const variables: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const vars = {
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    request: admissionRequest(a),
    params: params ?? null,
    namespaceObject: namespaceObject ?? null,
    variables,
    ...(authorize ? { authorizer: authorizerFor(a, authorize) } : {}),
  };
  for (const v of policy.variables) defineLazyVariable(variables, v, vars, budget);
  const run = (program: CompiledPolicy["validations"][number]["program"]): Outcome => {
    beginExpression?.();
    return runCompiled(program, vars, budget);
  };
  for (const c of policy.matchConditions) {
    const o = run(c.program);
    if ("error" in o) return { decisions: [{ action: onError, evaluation: "error", message: o.error }], auditAnnotations: [] };
    if (o.value !== true) return { decisions: [], auditAnnotations: [] };
  }
  const decisions = policy.validations.map((v): PolicyDecision => {
    const o = run(v.program);
    if ("error" in o) return { action: onError, evaluation: "error", message: o.error };
    if (o.value === true) return { action: "admit", evaluation: "admit", message: "" };
    const fromExpression = v.messageProgram ? evaluatedMessage(run(v.messageProgram)) : "";
    const message = fromExpression || v.message?.trim() || `failed expression: ${v.expression.trim()}`;
    return { action: "deny", evaluation: "deny", message, reason: v.reason ?? "Invalid" };
  });
  const auditAnnotations = policy.auditAnnotations.map((an): AuditAnnotationResult => {
    const o = run(an.program);
    if ("error" in o) return { key: an.key, error: o.error };
    if (o.value === null) return { key: an.key };
    if (typeof o.value !== "string")
      return {
        key: an.key,
        error: `valueExpression '${an.valueExpression}' resulted in unsupported return type: ${typeof o.value}. Return type must be either string or null.`,
      };
    const value = o.value.trim();
    return value === "" ? { key: an.key } : { key: an.key, value };
  });
  return { decisions, auditAnnotations };
}
