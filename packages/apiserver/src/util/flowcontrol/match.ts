/**
 * Request classification (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/match.go): whether a
 * FlowSchema's rules match a request's user and target.
 */
import {
  NameAll,
  NamespaceEvery,
  NonResourceAll,
  type FlowSchema,
  type PolicyRulesWithSubjects,
  type ResourcePolicyRule,
  type Subject,
} from "@servicenet/api/flowcontrol/v1";
import type { UserInfo } from "../../authentication/user/user.ts";

/** The request facts classification reads (RequestDigest). */
export interface RequestDigest {
  user: UserInfo;
  /** A resource request's info, or a non-resource request's verb (lower-cased method) and path. */
  requestInfo: ResourceRequestInfo | NonResourceRequestInfo;
}

export interface ResourceRequestInfo {
  isResourceRequest: true;
  verb: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** For the debug dump only: the API version and the request path. */
  apiVersion?: string;
  path?: string;
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  verb: string;
  path: string;
}

/** matchesFlowSchema: any of the schema's rules matches. */
export function matchesFlowSchema(digest: RequestDigest, fs: FlowSchema): boolean {
  return (fs.spec?.rules ?? []).some((r) => matchesPolicyRule(digest, r));
}

function matchesPolicyRule(digest: RequestDigest, rule: PolicyRulesWithSubjects): boolean {
  if (!rule.subjects.some((s) => matchesSubject(digest.user, s))) return false;
  const ri = digest.requestInfo;
  if (ri.isResourceRequest) return (rule.resourceRules ?? []).some((r) => matchesResourcePolicyRule(ri, r));
  return (rule.nonResourceRules ?? []).some(
    (r) => containsString(ri.verb, r.verbs, "*") && matchPolicyRuleNonResourceURL(r.nonResourceURLs, ri.path),
  );
}

/** matchesSubject. */
export function matchesSubject(user: UserInfo, subject: Subject): boolean {
  switch (subject.kind) {
    case "User":
      return subject.user !== undefined && (subject.user.name === NameAll || subject.user.name === user.name);
    case "Group": {
      if (subject.group === undefined) return false;
      const seek = subject.group.name;
      return seek === "*" || (user.groups ?? []).includes(seek);
    }
    case "ServiceAccount": {
      const sa = subject.serviceAccount;
      if (sa === undefined) return false;
      if (sa.name === NameAll) return serviceAccountMatchesNamespace(sa.namespace, user.name);
      return user.name === `system:serviceaccount:${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

/** serviceAccountMatchesNamespace: `system:serviceaccount:<namespace>:<anything>`. */
function serviceAccountMatchesNamespace(namespace: string, username: string): boolean {
  return username.startsWith(`system:serviceaccount:${namespace}:`);
}

function matchesResourcePolicyRule(ri: ResourceRequestInfo, rule: ResourcePolicyRule): boolean {
  if (!containsString(ri.verb, rule.verbs, "*")) return false;
  const resource = ri.subresource !== "" ? `${ri.resource}/${ri.subresource}` : ri.resource;
  if (!containsString(resource, rule.resources, "*")) return false;
  if (!containsString(ri.apiGroup, rule.apiGroups, "*")) return false;
  if (ri.namespace === "") return rule.clusterScope === true;
  return containsString(ri.namespace, rule.namespaces ?? [], NamespaceEvery);
}

/** matchPolicyRuleNonResourceURL: exact, `*`, or a `/prefix/*` glob. */
function matchPolicyRuleNonResourceURL(rules: readonly string[], path: string): boolean {
  return rules.some((r) => r === NonResourceAll || r === path || (r.endsWith("*") && path.startsWith(r.replace(/\*+$/, ""))));
}

function containsString(x: string, list: readonly string[], wildcard: string): boolean {
  return list.some((s) => s === x || s === wildcard);
}
