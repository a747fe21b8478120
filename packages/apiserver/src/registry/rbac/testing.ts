/**
 * Test support for the RBAC storages: a static rule resolver (rules per user, per namespace, and
 * per referenced role) standing in for rule.go's DefaultRuleResolver, and an authorizer that
 * records its calls, as upstream's tests use validation.NewTestRuleResolver and AuthorizerFunc.
 */
import { StatusError, type PolicyRule, type RoleRef } from "@servicenet/api";
import type { Attributes, AuthorizationRuleResolver, Authorizer, Decision } from "../../authorization/authorizer/interfaces.ts";

export interface StaticRules {
  /** Rules by user name, then namespace ("" = cluster-wide, applying in every namespace). */
  users?: Record<string, Record<string, PolicyRule[]>>;
  /** Rules of referenced roles, keyed `Kind/namespace/name` (namespace "" for ClusterRoles). */
  roles?: Record<string, PolicyRule[]>;
}

/** A resolver answering from fixed tables. */
export function staticRuleResolver(t: StaticRules): AuthorizationRuleResolver {
  return {
    rulesFor: async (user, namespace) => {
      const byNs = t.users?.[user.name] ?? {};
      return { rules: [...(byNs[""] ?? []), ...(namespace !== "" ? (byNs[namespace] ?? []) : [])], errors: [] };
    },
    getRoleReferenceRules: async (ref: RoleRef, namespace: string) => {
      const key = ref.kind === "ClusterRole" ? `ClusterRole//${ref.name}` : `Role/${namespace}/${ref.name}`;
      const rules = t.roles?.[key];
      if (rules === undefined)
        throw StatusError.notFound(
          { group: "rbac.authorization.k8s.io", resource: ref.kind === "ClusterRole" ? "clusterroles" : "roles" },
          ref.name,
        );
      return rules;
    },
  };
}

/** An authorizer deciding by a function and keeping every request it was asked. */
export function recordingAuthorizer(decide: (a: Attributes) => Decision): Authorizer & { calls: Attributes[] } {
  const calls: Attributes[] = [];
  return {
    calls,
    authorize: (a) => {
      calls.push(a);
      return { decision: decide(a), reason: "" };
    },
  };
}
