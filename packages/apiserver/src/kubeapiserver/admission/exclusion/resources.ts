/**
 * The transient (never persisted) resources and what the expression-based admission plugins
 * (ValidatingAdmissionPolicy) do with them (pkg/kubeapiserver/admission/exclusion/resources.go):
 * `included` they intercept, `excluded` they ignore (handed to the plugins by the kube-apiserver's
 * PluginInitializer as WantsExcludedAdmissionResources): the reviews, whose interception may break
 * the cluster. Every version of a group resource is treated the same; every transient resource is
 * on one of the two lists (test/integration/apiserver/cel/excludedresources_test.go).
 */

/** A group and resource, version omitted (schema.GroupResource). */
export interface GroupResource {
  group: string;
  resource: string;
}

const included: readonly GroupResource[] = [
  { group: "", resource: "bindings" },
  { group: "", resource: "pods/attach" },
  { group: "", resource: "pods/binding" },
  { group: "", resource: "pods/eviction" },
  { group: "", resource: "pods/exec" },
  { group: "", resource: "pods/portforward" },
  { group: "", resource: "serviceaccounts/token" },
];

const excluded: readonly GroupResource[] = [
  { group: "authentication.k8s.io", resource: "selfsubjectreviews" },
  { group: "authentication.k8s.io", resource: "tokenreviews" },
  { group: "authorization.k8s.io", resource: "localsubjectaccessreviews" },
  { group: "authorization.k8s.io", resource: "selfsubjectaccessreviews" },
  { group: "authorization.k8s.io", resource: "selfsubjectrulesreviews" },
  { group: "authorization.k8s.io", resource: "subjectaccessreviews" },
];

/** Excluded: a copy of the list of resources the expression-based admission plugins ignore. */
export function excludedAdmissionResources(): GroupResource[] {
  return excluded.map((gr) => ({ ...gr }));
}

/** Included: a copy of the list of transient resources the expression-based admission plugins intercept. */
export function includedAdmissionResources(): GroupResource[] {
  return included.map((gr) => ({ ...gr }));
}
