/**
 * The authorizer contract (staging/src/k8s.io/apiserver/pkg/authorization/authorizer/interfaces.go):
 * request attributes in, a decision and a reason out. RBAC, AlwaysAllow and the union of
 * `--authorization-mode` implement it; the server's filter, impersonation, the access reviews and
 * the RBAC storage's escalation checks call it.
 */
import type { PolicyRule, RoleRef } from "@servicenet/api";
import type { UserInfo } from "../../authentication/user/user.ts";
import type { FieldSelector } from "../../registry/generic/selection/fields.ts";
import type { LabelSelector } from "../../registry/generic/selection/labels.ts";

/** authorizer.Attributes (AttributesRecord): what a request asks to do. */
export interface Attributes {
  user: UserInfo | undefined;
  /** get, list, watch, create, update, patch, delete, deletecollection, or a special verb (impersonate, bind, escalate, use); lower-case HTTP method for non-resource requests. */
  verb: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  resourceRequest: boolean;
  /** The URL path for non-resource requests. */
  path: string;
  /**
   * GetFieldSelector (AuthorizeWithSelectors): the requirements of the field selector the request
   * is limited to, or the error parsing it; unset when there is none. Authorizers may narrow their
   * decision with them (the webhook authorizer sends them); RBAC ignores them.
   */
  fieldSelectorRequirements?: FieldSelector;
  fieldSelectorParsingErr?: string;
  /** GetLabelSelector (AuthorizeWithSelectors): as the field selector, for the label selector. */
  labelSelectorRequirements?: LabelSelector;
  labelSelectorParsingErr?: string;
}

/** authorizer.Decision. */
export type Decision = "Deny" | "Allow" | "NoOpinion";

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  /** An evaluation error; the decision still stands (upstream returns both). */
  error?: string;
}

/**
 * authorizer.Authorizer. An authorizer that can decide without I/O answers without a promise
 * (RBAC reads its informers' caches; the webhook authorizer when its cache holds the answer).
 */
export interface Authorizer {
  authorize(a: Attributes): AuthorizationResult | Promise<AuthorizationResult>;
}

/**
 * A decision had without awaiting, for callers that evaluate synchronously (CEL's authorizer
 * library); admission's CachingAuthorizer provides one over any authorizer, waiting between
 * evaluations for the decisions that need it.
 */
export type SynchronousAuthorize = (a: Attributes) => AuthorizationResult;

/** authorizer.ResourceRuleInfo / NonResourceRuleInfo, as SelfSubjectRulesReview lists them. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}
export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

/** What RulesFor answers: the rules, and whether the list is incomplete (an evaluation error). */
export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  error?: string;
}

/** authorizer.RuleResolver: the rules a user holds in a namespace ("" = cluster-wide only). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}

/** The rules source the RBAC authorizer and the escalation checks share (pkg/registry/rbac/validation/rule.go AuthorizationRuleResolver). */
export interface AuthorizationRuleResolver {
  /** Every rule that applies to the user in the namespace (cluster-wide bindings included); errors are collected, not thrown. */
  rulesFor(user: UserInfo, namespace: string): Promise<{ rules: PolicyRule[]; errors: string[] }>;
  /**
   * GetRoleReferenceRules: the rules of the Role or ClusterRole a binding in `namespace` ("" for a
   * ClusterRoleBinding) references; rejects (NotFound StatusError) when it cannot be read.
   */
  getRoleReferenceRules(roleRef: RoleRef, namespace: string): Promise<PolicyRule[]>;
}

/** A new attributes record with empty defaults. */
export function attributes(a: Partial<Attributes> & Pick<Attributes, "verb">): Attributes {
  return {
    user: undefined,
    namespace: "",
    apiGroup: "",
    apiVersion: "",
    resource: "",
    subresource: "",
    name: "",
    resourceRequest: false,
    path: "",
    ...a,
  };
}
