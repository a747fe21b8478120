/**
 * The ValidatingAdmissionPolicy plugin (k8s.io/apiserver/pkg/admission/plugin/policy/validating):
 * compile a policy once, dispatch a request to the matching policies and bindings.
 */
export { compileAdmissionExpression, compilePolicy, type CompiledPolicy } from "./compile.ts";
export { dispatch, type DispatchResult, type DispatchSources, type PolicyWithCompiled } from "./dispatcher.ts";
export { admissionRequest, validate, type PolicyDecision, type ValidateResult } from "./validator.ts";
export type { Attributes, GroupVersionKind, GroupVersionResource, Operation, UserInfo } from "../../../attributes.ts";
