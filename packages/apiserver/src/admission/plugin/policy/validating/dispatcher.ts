/**
 * Runs every ValidatingAdmissionPolicy and binding that match a request
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go Dispatch): the policy's
 * matchConstraints and the binding's matchResources select, paramRef finds the params, and each
 * failed validation acts as the binding's validationActions say: Deny fails the request with the
 * first denial, Warn adds a warning, Audit records an audit annotation.
 */
import { StatusError, type StatusReason } from "@servicenet/api";
import type {
  ParamKind,
  ParamRef,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from "@servicenet/api/admissionregistration/v1";
import type { Attributes } from "../../../attributes.ts";
import type { SynchronousAuthorize } from "../../../../authorization/authorizer/interfaces.ts";
import { newForbidden } from "../../../errors.ts";
import { versionedAttributes } from "../../../conversion.ts";
import type { EquivalentResourceMapper } from "../../../equivalent-resources.ts";
import { matches } from "../matching/matching.ts";
import type { CompiledPolicy } from "./compile.ts";
import { validate, type PolicyDecision } from "./validator.ts";

/** A policy with its compiled expressions (compiled once per generation by the caller). */
export interface PolicyWithCompiled {
  policy: ValidatingAdmissionPolicy;
  compiled: CompiledPolicy;
}

/** What the dispatcher needs from the cluster: namespaces and param objects. */
export interface DispatchSources {
  /** The namespace object of a namespaced request (undefined when it does not exist). */
  namespace(name: string): unknown;
  /** The param objects of `kind` that `ref` selects (in `namespace` for a namespaced kind). */
  params(kind: ParamKind, ref: ParamRef, namespace: string): unknown[] | undefined;
  /** The server's authorizer, decided synchronously, behind the `authorizer` variable. */
  authorize?: SynchronousAuthorize;
  /** Told where each top-level expression starts, so that independent checks are fetched together. */
  beginExpression?: () => void;
  /** Equivalent resources and their conversion, for matchPolicy Equivalent; only exact rules match without it. */
  equivalentResources?: EquivalentResourceMapper;
}

/** The warnings and audit annotations an admitted request carries. */
export interface DispatchResult {
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

interface Denial {
  policy: string;
  binding: string;
  decision: PolicyDecision;
}

const validationFailureKey = "validation.policy.admission.k8s.io/validation_failure";

function paramsFor(
  p: PolicyWithCompiled,
  b: ValidatingAdmissionPolicyBinding,
  a: Attributes,
  src: DispatchSources,
): { params: unknown[] } | { error: string } {
  const kind = p.policy.spec.paramKind;
  const ref = b.spec.paramRef;
  // CollectParams: without paramKind, or a binding that does not use it, the policy runs with null params.
  if (kind === undefined || ref === undefined) return { params: [null] };
  const found = src.params(kind, ref, ref.namespace ?? a.namespace);
  // ParamKind.String(), the generated protobuf form.
  if (found === undefined)
    return { error: `paramKind kind \`&ParamKind{APIVersion:${kind.apiVersion ?? ""},Kind:${kind.kind ?? ""},}\` not known` };
  if (found.length > 0) return { params: found };
  if ((ref.parameterNotFoundAction ?? "Deny") === "Allow") return { params: [] };
  return { error: "no params found for policy binding with `Deny` parameterNotFoundAction" };
}

/**
 * Dispatches `a` to the policies and bindings; throws the first denial as kube-apiserver words it
 * (`ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...`, the validation's reason
 * and its code, 422 for Invalid), else returns the warnings and audit annotations. They are in
 * `result` when it throws too: upstream adds them to the request as it goes, denied or not.
 */
export function dispatch(
  policies: readonly PolicyWithCompiled[],
  bindings: readonly ValidatingAdmissionPolicyBinding[],
  a: Attributes,
  src: DispatchSources,
  result: DispatchResult = { warnings: [], auditAnnotations: {} },
): DispatchResult {
  const denials: Denial[] = [];
  const failures: unknown[] = [];
  // Errors collecting params (policy_dispatcher.go addConfigError): not subject to validationActions.
  const configErrors: string[] = [];
  const collected = new Map<string, string[]>();
  const byName = new Map(policies.map((p) => [p.policy.metadata.name ?? "", p]));
  const nsObject = a.namespace !== "" ? src.namespace(a.namespace) : undefined;
  const nsLabels = (nsObject as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels;
  for (const b of bindings) {
    const p = byName.get(b.spec.policyName ?? "");
    if (p === undefined) continue;
    const matched = matches(p.policy.spec.matchConstraints, a, nsLabels, src.equivalentResources);
    if (!matched) continue;
    if (b.spec.matchResources !== undefined && !matches(b.spec.matchResources, a, nsLabels, src.equivalentResources)) continue;
    const policyName = p.policy.metadata.name ?? "";
    const bindingName = b.metadata.name ?? "";
    const failurePolicy = p.policy.spec.failurePolicy ?? "Fail";
    const params = paramsFor(p, b, a, src);
    if ("error" in params) {
      // PolicyError.Error() over addConfigError's "failed to configure binding: %w".
      if (failurePolicy !== "Ignore")
        configErrors.push(
          `policy '${policyName}' with binding '${bindingName}' denied request: failed to configure binding: ${params.error}`,
        );
      continue;
    }
    // The policy sees the request in the version its matchConstraints matched (VersionedAttribute of matchKind).
    const v = versionedAttributes(a, matched, src.equivalentResources);
    const results = params.params.map((param) =>
      validate(p.compiled, v, param, nsObject, failurePolicy, src.authorize, src.beginExpression),
    );
    const decisions = results.flatMap((r) => r.decisions);
    decisions.forEach((decision, index) => {
      if (decision.action !== "deny") return;
      for (const action of b.spec.validationActions ?? []) {
        if (action === "Deny") denials.push({ policy: policyName, binding: bindingName, decision });
        else if (action === "Warn")
          result.warnings.push(
            `Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${decision.message}`,
          );
        else if (action === "Audit")
          failures.push({
            message: decision.message,
            policy: policyName,
            binding: bindingName,
            expressionIndex: index,
            validationActions: b.spec.validationActions,
          });
      }
    });
    for (const an of results.flatMap((r) => r.auditAnnotations)) {
      // An annotation that failed to evaluate denies under failurePolicy Fail, whatever the validationActions.
      if (an.error !== undefined) {
        if (failurePolicy !== "Ignore")
          denials.push({ policy: policyName, binding: bindingName, decision: { action: "deny", evaluation: "error", message: an.error } });
      } else if (an.value !== undefined) collectAuditAnnotation(collected, `${policyName}/${an.key}`, an.value);
    }
  }
  publishAuditAnnotations(collected, result.auditAnnotations);
  if (failures.length > 0) result.auditAnnotations[validationFailureKey] = JSON.stringify(failures);
  const first = denials[0];
  if (first === undefined) {
    if (configErrors.length > 0) throw configError(a, configErrors);
    return result;
  }
  const message = `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.decision.message}`;
  const forbidden = newForbidden(a, message);
  const reason = (first.decision.reason ?? "Invalid") as StatusReason;
  const details = forbidden.status.details ?? {};
  throw new StatusError(reason, forbidden.message, { ...details, causes: [...(details.causes ?? []), { message }] });
}

/** The Forbidden of policy configuration errors: the first error is the whole message, each one a cause. */
function configError(a: Attributes, errors: readonly string[]): StatusError {
  const forbidden = newForbidden(a, "admission request denied by policy");
  const details = forbidden.status.details ?? {};
  return new StatusError("Forbidden", errors[0] ?? "", {
    ...details,
    causes: [...(details.causes ?? []), ...errors.map((message) => ({ message }))],
  });
}

/** Longest audit annotation value kept (validating/dispatcher.go maxAuditAnnotationValueLength). */
const maxAuditAnnotationValueLength = 10 * 1024;

/** auditAnnotationCollector.add: each distinct value of a policy's key, truncated. */
function collectAuditAnnotation(collected: Map<string, string[]>, key: string, value: string): void {
  const values = collected.get(key) ?? [];
  const v = value.slice(0, maxAuditAnnotationValueLength);
  if (!values.includes(v)) values.push(v);
  collected.set(key, values);
}

/** auditAnnotationCollector.publish: several bindings' distinct values of one key are joined with ", ". */
function publishAuditAnnotations(collected: ReadonlyMap<string, string[]>, out: Record<string, string>): void {
  for (const [key, values] of collected) out[key] = values.join(", ");
}
