/**
 * ValidatingAdmissionPolicy REST strategy
 * (pkg/registry/admissionregistration/validatingadmissionpolicy/strategy.go): the status is the
 * type checker's, the generation follows the spec, and every expression is compiled by validation.
 */
import {
  setDefaultsValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicy,
  type ValidatingAdmissionPolicy,
} from "@servicenet/api/admissionregistration/v1";
import { field, path, type FieldError } from "@servicenet/api";
import { validateConditions } from "@servicenet/api/flowcontrol/v1";
import { policyExpressionCompiler } from "../../../admission/plugin/policy/validating/compile.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, keepStatus, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asPolicy = (o: KubeObject): ValidatingAdmissionPolicy => {
  (o as { spec?: unknown }).spec ??= {};
  return o as ValidatingAdmissionPolicy;
};

/** validateValidatingAdmissionPolicyStatus: the type checker's warnings and the conditions. */
export function validateValidatingAdmissionPolicyStatus(p: ValidatingAdmissionPolicy): FieldError[] {
  const errs: FieldError[] = [];
  const warnings = p.status?.typeChecking?.expressionWarnings ?? [];
  warnings.forEach((w, i) => {
    const fld = path("status.typeChecking.expressionWarnings", i);
    if (w.fieldRef === "") errs.push(field.required(path(fld, "fieldRef")));
    if (w.warning === "") errs.push(field.required(path(fld, "warning")));
  });
  errs.push(...validateConditions(p.status?.conditions, "status.conditions"));
  return errs;
}

/**
 * The strategy under the AuthorizeWithSelectors gate: validation compiles the expressions in the
 * environment the gate gives (environment/base.go adds the selector library only with it).
 */
export function validatingAdmissionPolicyStrategyFor(authorizeWithSelectors: boolean): RESTStrategy {
  const compile = policyExpressionCompiler(authorizeWithSelectors);
  return {
    group: "admissionregistration.k8s.io",
    kind: "ValidatingAdmissionPolicy",
    namespaced: false,
    allowCreateOnUpdate: false,
    // A status writer must send the resourceVersion it read (upstream: false for both strategies).
    allowUnconditionalUpdate: false,
    defaults: (o) => setDefaultsValidatingAdmissionPolicy(asPolicy(o)),
    prepareForCreate: (o) => {
      o["status"] = {};
      o.metadata.generation = 1;
    },
    prepareForUpdate: (o, old) => {
      keepStatus(o, old);
      bumpGeneration(o, old);
    },
    validate: (o) => validateValidatingAdmissionPolicy(asPolicy(o), compile),
    validateUpdate: (o) => validateValidatingAdmissionPolicy(asPolicy(o), compile),
    subresources: {
      status: { prepareForUpdate: resetForStatus, validateUpdate: (o) => validateValidatingAdmissionPolicyStatus(asPolicy(o)) },
    },
  };
}

export const validatingAdmissionPolicyStrategy: RESTStrategy = validatingAdmissionPolicyStrategyFor(true);
