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

/** A FlowSchema's rules compiled once per configuration: a request is matched without allocating. */
export type FlowSchemaMatcher = (digest: RequestDigest) => boolean;

/** matchesFlowSchema: any of the schema's rules matches. */
export function matchesFlowSchema(digest: RequestDigest, fs: FlowSchema): boolean {
  return compileFlowSchema(fs)(digest);
}

/** compileFlowSchema: matchesFlowSchema with each rule's lists turned into sets and wildcard flags. */
export function compileFlowSchema(fs: FlowSchema): FlowSchemaMatcher {
  const rules = (fs.spec?.rules ?? []).map(compilePolicyRule);
  return (digest) => {
    for (const r of rules) if (r(digest)) return true;
    return false;
  };
}

function compilePolicyRule(rule: PolicyRulesWithSubjects): FlowSchemaMatcher {
  const subjects = rule.subjects;
  const resourceRules = (rule.resourceRules ?? []).map(compileResourceRule);
  const nonResourceRules = (rule.nonResourceRules ?? []).map((r) => {
    const verbs = setOf(r.verbs, "*");
    const urls = r.nonResourceURLs;
    return (verb: string, path: string): boolean => verbs.has(verb) && matchPolicyRuleNonResourceURL(urls, path);
  });
  return (digest) => {
    let subject = false;
    for (const s of subjects) if ((subject = matchesSubject(digest.user, s))) break;
    if (!subject) return false;
    const ri = digest.requestInfo;
    if (ri.isResourceRequest) {
      for (const r of resourceRules) if (r(ri)) return true;
      return false;
    }
    for (const r of nonResourceRules) if (r(ri.verb, ri.path)) return true;
    return false;
  };
}

/** A set that also answers true for every member when `wildcard` is among the values. */
function setOf(values: readonly string[], wildcard: string): { has(x: string): boolean } {
  if (values.includes(wildcard)) return { has: () => true };
  const set = new Set(values);
  return { has: (x) => set.has(x) };
}

function compileResourceRule(rule: ResourcePolicyRule): (ri: ResourceRequestInfo) => boolean {
  const verbs = setOf(rule.verbs, "*");
  const resources = setOf(rule.resources, "*");
  const groups = setOf(rule.apiGroups, "*");
  const namespaces = setOf(rule.namespaces ?? [], NamespaceEvery);
  const clusterScope = rule.clusterScope === true;
  return (ri) => {
    if (!verbs.has(ri.verb)) return false;
    const resource = ri.subresource !== "" ? `${ri.resource}/${ri.subresource}` : ri.resource;
    if (!resources.has(resource) || !groups.has(ri.apiGroup)) return false;
    if (ri.namespace === "") return clusterScope;
    return namespaces.has(ri.namespace);
  };
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

/** matchPolicyRuleNonResourceURL: exact, `*`, or a `/prefix/*` glob. */
function matchPolicyRuleNonResourceURL(rules: readonly string[], path: string): boolean {
  return rules.some((r) => r === NonResourceAll || r === path || (r.endsWith("*") && path.startsWith(r.replace(/\*+$/, ""))));
}
