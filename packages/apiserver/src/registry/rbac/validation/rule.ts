/**
 * pkg/registry/rbac/validation/rule.go: the rules a user holds in a namespace, found through the
 * ClusterRoleBindings and the namespace's RoleBindings whose subjects apply to the user. The RBAC
 * authorizer, the access reviews and the escalation checks share this resolver.
 */
import {
  StatusError,
  type ClusterRole,
  type ClusterRoleBinding,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type RoleRef,
  type Subject,
} from "@servicenet/api";
import { groupKind, serviceAccountKind, userKind } from "@servicenet/api/rbac/v1";
import type { UserInfo } from "../../../authentication/user/user.ts";
import type { AuthorizationRuleResolver } from "../../../authorization/authorizer/interfaces.ts";

/** RoleGetter: throws (a NotFound StatusError, or an Error) when the role cannot be read. */
export interface RoleGetter {
  getRole(namespace: string, name: string): Role;
}
/**
 * RoleBindingLister. `user`, when given, lets an indexed lister return only the bindings that may
 * apply to that user (a superset: the resolver still checks every subject).
 */
export interface RoleBindingLister {
  listRoleBindings(namespace: string, user?: UserInfo): readonly RoleBinding[];
}
export interface ClusterRoleGetter {
  getClusterRole(name: string): ClusterRole;
}
export interface ClusterRoleBindingLister {
  listClusterRoleBindings(user?: UserInfo): readonly ClusterRoleBinding[];
}

/** The `fmt.Stringer` that names where a rule came from ("RBAC: allowed by <source>"). */
export interface RuleSource {
  toString(): string;
}

/** The VisitRulesFor visitor: returns false to stop visiting. `rule` is undefined when `err` is set. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: Error | undefined) => boolean;

/** describeSubject: `User "alice"`, `ServiceAccount "sa/ns"`. */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === serviceAccountKind) return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

function clusterRoleBindingSource(b: ClusterRoleBinding, s: Subject): RuleSource {
  return {
    toString: () =>
      `ClusterRoleBinding ${JSON.stringify(b.metadata.name ?? "")} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${describeSubject(s, "")}`,
  };
}

function roleBindingSource(b: RoleBinding, s: Subject): RuleSource {
  const ns = b.metadata.namespace ?? "";
  return {
    toString: () =>
      `RoleBinding ${JSON.stringify(`${b.metadata.name ?? ""}/${ns}`)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${describeSubject(s, ns)}`,
  };
}

/** serviceaccount.MakeUsername: `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** appliesToUser: whether one binding subject names the user (SA subjects default to the binding's namespace). */
export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case userKind:
      return user.name === subject.name;
    case groupKind:
      return user.groups.includes(subject.name);
    case serviceAccountKind: {
      const saNamespace = subject.namespace || namespace;
      if (saNamespace === "") return false;
      return user.name === serviceAccountUsername(saNamespace, subject.name);
    }
    default:
      return false;
  }
}

/** appliesTo: the index of the first subject that applies to the user, or -1. */
export function appliesTo(user: UserInfo, subjects: readonly Subject[] | null | undefined, namespace: string): number {
  return (subjects ?? []).findIndex((s) => appliesToUser(user, s, namespace));
}

/** utilerrors.NewAggregate's message: one error as is, several as `[a, b]`. */
export function aggregateErrors(errs: readonly Error[]): string {
  if (errs.length === 1) return errs[0]!.message;
  return `[${errs.map((e) => e.message).join(", ")}]`;
}

/** DefaultRuleResolver. */
export class DefaultRuleResolver implements AuthorizationRuleResolver {
  private readonly roleGetter: RoleGetter;
  private readonly roleBindingLister: RoleBindingLister;
  private readonly clusterRoleGetter: ClusterRoleGetter;
  private readonly clusterRoleBindingLister: ClusterRoleBindingLister;

  constructor(
    roleGetter: RoleGetter,
    roleBindingLister: RoleBindingLister,
    clusterRoleGetter: ClusterRoleGetter,
    clusterRoleBindingLister: ClusterRoleBindingLister,
  ) {
    this.roleGetter = roleGetter;
    this.roleBindingLister = roleBindingLister;
    this.clusterRoleGetter = clusterRoleGetter;
    this.clusterRoleBindingLister = clusterRoleBindingLister;
  }

  /** RulesFor: every rule that applies, plus the resolution errors (the rules stay usable: RBAC is additive). */
  rulesForSync(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  rulesFor(user: UserInfo, namespace: string): Promise<{ rules: PolicyRule[]; errors: string[] }> {
    const { rules, errors } = this.rulesForSync(user, namespace);
    return Promise.resolve({ rules, errors: errors.map((e) => e.message) });
  }

  /** VisitRulesFor: cluster-wide bindings first, then the namespace's RoleBindings. */
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    for (const crb of this.clusterRoleBindingLister.listClusterRoleBindings(user)) {
      const i = appliesTo(user, crb.subjects, "");
      if (i < 0) continue;
      if (!this.#visitRoleRef(crb.roleRef, "", clusterRoleBindingSource(crb, crb.subjects![i]!), visitor)) return;
    }
    if (namespace === "") return;
    let roleBindings: readonly RoleBinding[];
    try {
      roleBindings = this.roleBindingLister.listRoleBindings(namespace, user);
    } catch (err) {
      visitor(undefined, undefined, asError(err));
      return;
    }
    for (const rb of roleBindings) {
      const i = appliesTo(user, rb.subjects, namespace);
      if (i < 0) continue;
      if (!this.#visitRoleRef(rb.roleRef, namespace, roleBindingSource(rb, rb.subjects![i]!), visitor)) return;
    }
  }

  #visitRoleRef(roleRef: RoleRef, namespace: string, source: RuleSource, visitor: RuleVisitor): boolean {
    let rules: readonly PolicyRule[];
    try {
      rules = this.getRoleReferenceRulesSync(roleRef, namespace);
    } catch (err) {
      return visitor(undefined, undefined, asError(err));
    }
    for (const rule of rules) if (!visitor(source, rule, undefined)) return false;
    return true;
  }

  /** GetRoleReferenceRules; throws when the role cannot be read or the kind is unknown. */
  getRoleReferenceRulesSync(roleRef: RoleRef, bindingNamespace: string): PolicyRule[] {
    switch (roleRef.kind) {
      case "Role":
        return this.roleGetter.getRole(bindingNamespace, roleRef.name).rules ?? [];
      case "ClusterRole":
        return this.clusterRoleGetter.getClusterRole(roleRef.name).rules ?? [];
      default:
        throw new Error(`unsupported role reference kind: ${JSON.stringify(roleRef.kind)}`);
    }
  }

  getRoleReferenceRules(roleRef: RoleRef, namespace: string): Promise<PolicyRule[]> {
    try {
      return Promise.resolve(this.getRoleReferenceRulesSync(roleRef, namespace));
    } catch (err) {
      return Promise.reject(asError(err));
    }
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** StaticRoles (NewTestRuleResolver): a resolver over fixed lists, for tests. */
export class StaticRoles implements RoleGetter, RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister {
  readonly roles: Role[];
  readonly roleBindings: RoleBinding[];
  readonly clusterRoles: ClusterRole[];
  readonly clusterRoleBindings: ClusterRoleBinding[];

  constructor(
    roles: Role[] = [],
    roleBindings: RoleBinding[] = [],
    clusterRoles: ClusterRole[] = [],
    clusterRoleBindings: ClusterRoleBinding[] = [],
  ) {
    this.roles = roles;
    this.roleBindings = roleBindings;
    this.clusterRoles = clusterRoles;
    this.clusterRoleBindings = clusterRoleBindings;
  }

  getRole(namespace: string, name: string): Role {
    if (namespace === "") throw new Error("must provide namespace when getting role");
    const r = this.roles.find((x) => x.metadata.namespace === namespace && x.metadata.name === name);
    if (!r) throw new Error("role not found");
    return r;
  }

  getClusterRole(name: string): ClusterRole {
    const r = this.clusterRoles.find((x) => x.metadata.name === name);
    if (!r) throw new Error("clusterrole not found");
    return r;
  }

  listRoleBindings(namespace: string): RoleBinding[] {
    if (namespace === "") throw new Error("must provide namespace when listing role bindings");
    return this.roleBindings.filter((b) => b.metadata.namespace === namespace);
  }

  listClusterRoleBindings(): ClusterRoleBinding[] {
    return this.clusterRoleBindings;
  }
}

/** NewTestRuleResolver. */
export function newTestRuleResolver(
  roles: Role[],
  roleBindings: RoleBinding[],
  clusterRoles: ClusterRole[],
  clusterRoleBindings: ClusterRoleBinding[],
): DefaultRuleResolver {
  const r = new StaticRoles(roles, roleBindings, clusterRoles, clusterRoleBindings);
  return new DefaultRuleResolver(r, r, r, r);
}

/** The NotFound a client-go lister gives for a missing role: singular resource, `clusterrole.rbac.authorization.k8s.io "x" not found`. */
export function roleNotFound(resource: "role" | "clusterrole", name: string): StatusError {
  return StatusError.notFound({ group: "rbac.authorization.k8s.io", resource }, name);
}
