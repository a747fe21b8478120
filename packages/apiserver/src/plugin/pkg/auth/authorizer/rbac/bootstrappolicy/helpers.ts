/**
 * The builders bootstrappolicy writes its roles with (pkg/apis/rbac/v1/helpers.go
 * PolicyRuleBuilder, ClusterRoleBindingBuilder, RoleBindingBuilder): each list of a rule is
 * sorted, as `Rule()` does.
 */
import type { ClusterRoleBinding, PolicyRule, RoleBinding, Subject } from "@servicenet/api";
import { rbacGroupName } from "@servicenet/api/rbac/v1";

const sorted = (xs: string[]): string[] => [...xs].sort();

/** PolicyRuleBuilder: `newRule("get").groups("").resources("pods").rule()`. */
export class PolicyRuleBuilder {
  readonly #r: Required<PolicyRule>;

  constructor(verbs: string[]) {
    this.#r = { verbs, apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [] };
  }

  groups(...groups: string[]): this {
    this.#r.apiGroups.push(...groups);
    return this;
  }

  resources(...resources: string[]): this {
    this.#r.resources.push(...resources);
    return this;
  }

  names(...names: string[]): this {
    this.#r.resourceNames.push(...names);
    return this;
  }

  urls(...urls: string[]): this {
    this.#r.nonResourceURLs.push(...urls);
    return this;
  }

  /** RuleOrDie: the rule with every list sorted and empty lists left out. */
  rule(): PolicyRule {
    const r = this.#r;
    const out: PolicyRule = { verbs: sorted(r.verbs) };
    if (r.apiGroups.length > 0) out.apiGroups = sorted(r.apiGroups);
    if (r.resources.length > 0) out.resources = sorted(r.resources);
    if (r.resourceNames.length > 0) out.resourceNames = sorted(r.resourceNames);
    if (r.nonResourceURLs.length > 0) out.nonResourceURLs = sorted(r.nonResourceURLs);
    return out;
  }
}

/** NewRule. */
export function newRule(...verbs: string[]): PolicyRuleBuilder {
  return new PolicyRuleBuilder(verbs);
}

/** The subject list both binding builders append to, in call order. */
class SubjectsBuilder {
  protected readonly subjects: Subject[] = [];

  groups(...groups: string[]): this {
    for (const name of groups) this.subjects.push({ kind: "Group", apiGroup: rbacGroupName, name });
    return this;
  }

  users(...users: string[]): this {
    for (const name of users) this.subjects.push({ kind: "User", apiGroup: rbacGroupName, name });
    return this;
  }

  sas(namespace: string, ...names: string[]): this {
    for (const name of names) this.subjects.push({ kind: "ServiceAccount", namespace, name });
    return this;
  }
}

/** ClusterRoleBindingBuilder: `newClusterBinding("view").groups(...).users(...).sas(ns, name)`. */
export class ClusterRoleBindingBuilder extends SubjectsBuilder {
  readonly #name: string;

  constructor(clusterRoleName: string) {
    super();
    this.#name = clusterRoleName;
  }

  /** BindingOrDie: named after the role. */
  binding(): ClusterRoleBinding {
    return {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: this.#name },
      roleRef: { apiGroup: rbacGroupName, kind: "ClusterRole", name: this.#name },
      subjects: this.subjects,
    };
  }
}

/** NewClusterBinding. */
export function newClusterBinding(clusterRoleName: string): ClusterRoleBindingBuilder {
  return new ClusterRoleBindingBuilder(clusterRoleName);
}

/** RoleBindingBuilder: `newRoleBinding("role", "kube-system").users(...).sas(ns, name)`, named after the Role. */
export class RoleBindingBuilder extends SubjectsBuilder {
  readonly #name: string;
  readonly #namespace: string;

  constructor(roleName: string, namespace: string) {
    super();
    this.#name = roleName;
    this.#namespace = namespace;
  }

  /** BindingOrDie. */
  binding(): RoleBinding {
    return {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: this.#name, namespace: this.#namespace },
      roleRef: { apiGroup: rbacGroupName, kind: "Role", name: this.#name },
      subjects: this.subjects,
    };
  }
}

/** NewRoleBinding. */
export function newRoleBinding(roleName: string, namespace: string): RoleBindingBuilder {
  return new RoleBindingBuilder(roleName, namespace);
}
