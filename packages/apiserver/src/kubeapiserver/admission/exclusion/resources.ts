/**
 * The resources the expression-based admission plugins (ValidatingAdmissionPolicy) ignore
 * (pkg/kubeapiserver/admission/exclusion/resources.go `excluded`, handed to the plugins by the
 * kube-apiserver's PluginInitializer as WantsExcludedAdmissionResources): the reviews, which are
 * not persisted and whose interception may break the cluster. Every version of a group resource
 * is treated the same.
 */

/** A group and resource, version omitted (schema.GroupResource). */
export interface GroupResource {
  group: string;
  resource: string;
}

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
