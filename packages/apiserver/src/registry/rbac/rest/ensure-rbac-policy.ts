/**
 * pkg/registry/rbac/rest/storage_rbac.go PolicyData.EnsureRBACPolicy, the post-start hook
 * `rbac/bootstrap-roles`: the bootstrap cluster roles and bindings and the kube-system/kube-public
 * roles and bindings are created or reconciled (missing rules and subjects added, never removed;
 * auto-update "false" respected) through the apiserver's own storage, after the split and
 * aggregation migrations; retried each second for up to 30 s while storage is unavailable.
 */
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { StatusError, type ClusterRole, type ClusterRoleBinding, type Role, type RoleBinding } from "@servicenet/api";
import type { GenericStore } from "../../generic/store.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { controllerRoleBindings, controllerRoles } from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller-policy.ts";
import { namespaceRoleBindings, namespaceRoles } from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace-policy.ts";
import {
  clusterRoleBindings,
  clusterRoleBindingsToSplit,
} from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy-bindings.ts";
import { clusterRoles, clusterRolesToAggregate } from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.ts";
import { policyFeatureGates, type PolicyFeatureGates } from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy-gates.ts";
import { tryEnsureNamespace } from "../reconciliation/namespace.ts";
import { reconcileRole, type RoleModifier } from "../reconciliation/reconcile-role.ts";
import { reconcileRoleBinding, type RoleBindingModifier } from "../reconciliation/reconcile-rolebindings.ts";
import { primeAggregatedClusterRoles, primeSplitClusterRoleBindings } from "./prime-policy.ts";

/** What the hook reconciles (PolicyData). */
export interface PolicyData {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  /** Namespace → Roles to create or reconcile there. */
  roles: Record<string, Role[]>;
  /** Namespace → RoleBindings to create or reconcile there. */
  roleBindings: Record<string, RoleBinding[]>;
  /** Old name → new aggregate-to-* name (primeAggregatedClusterRoles). */
  clusterRolesToAggregate: Record<string, string>;
  /** Source binding → template of the binding split from it (primeSplitClusterRoleBindings). */
  clusterRoleBindingsToSplit: Record<string, ClusterRoleBinding>;
}

/** The bootstrap policy for `gates` (pkg/registry/rbac/rest.BootstrapPolicy... as controlplane builds PolicyData). */
export function bootstrapPolicy(gates: Partial<PolicyFeatureGates> = {}): PolicyData {
  const g = policyFeatureGates(gates);
  return {
    clusterRoles: [...clusterRoles(g), ...controllerRoles(g)],
    clusterRoleBindings: [...clusterRoleBindings(g), ...controllerRoleBindings(g)],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
    clusterRolesToAggregate: clusterRolesToAggregate(),
    clusterRoleBindingsToSplit: clusterRoleBindingsToSplit(g),
  };
}

const ns = (o: { metadata: { namespace?: string | undefined } }) => o.metadata.namespace;

/** The storage of one RBAC kind as the reconcilers and the primers use it; namespaced creates ensure the namespace. */
function modifier(gs: GenericStore, namespaces?: GenericStore) {
  return {
    get: async (name: string, namespace?: string) => (await gs.get(namespace, name)) as never,
    create: async (obj: unknown) => {
      const o = obj as KubeObject;
      const namespace = o.metadata.namespace;
      if (namespace !== undefined && namespaces !== undefined)
        await tryEnsureNamespace({ get: (n) => namespaces.get(undefined, n), create: (n) => namespaces.create(undefined, n) }, namespace);
      return (await gs.create(namespace, o)) as never;
    },
    update: async (obj: unknown) => {
      const o = obj as KubeObject;
      return (await gs.update(o.metadata.namespace, o.metadata.name ?? "", () => Promise.resolve(o))).object as never;
    },
    delete: async (name: string, uid: string, namespace?: string) =>
      void (await gs.delete(namespace, name, uid ? { preconditions: { uid } } : {})),
  };
}

/** RetryOnConflict with client-go's DefaultBackoff (10 ms, ×1, 5 steps, no jitter here). */
async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === "Conflict") || i >= 4) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

const group = "rbac.authorization.k8s.io";
const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Reconciles roles (cluster or namespaced) with upstream's log lines; one failure does not stop the others. */
async function reconcileRoles(kind: "clusterrole" | "role", roles: ClusterRole[], client: RoleModifier, log: Logger): Promise<void> {
  for (const role of roles) {
    const id = `${kind}.${group}/${role.metadata.name ?? ""}${ns(role) ? ` in ${ns(role)}` : ""}`;
    try {
      const r = await retryOnConflict(() => reconcileRole(role, client, { confirm: true }));
      if (r.protected && r.operation !== "none")
        log.info(`skipped reconcile-protected ${id} with missing permissions: ${JSON.stringify(r.missingRules)}`);
      else if (r.operation === "update") V(log, 2).info(`updated ${id} with additional permissions: ${JSON.stringify(r.missingRules)}`);
      else if (r.operation === "create") V(log, 2).info(`created ${id}`);
    } catch (e) {
      // don't fail on failures, try to create as many as you can
      log.error(`unable to reconcile ${id}: ${errText(e)}`);
    }
  }
}

/** Reconciles bindings (cluster or namespaced). */
async function reconcileBindings(
  kind: "clusterrolebinding" | "rolebinding",
  bindings: ClusterRoleBinding[],
  client: RoleBindingModifier,
  log: Logger,
): Promise<void> {
  for (const b of bindings) {
    const id = `${kind}.${group}/${b.metadata.name ?? ""}${ns(b) ? ` in ${ns(b)}` : ""}`;
    try {
      const r = await retryOnConflict(() => reconcileRoleBinding(b, client, { confirm: true }));
      if (r.protected && r.operation !== "none")
        log.info(`skipped reconcile-protected ${id} with missing subjects: ${JSON.stringify(r.missingSubjects)}`);
      else if (r.operation === "update") V(log, 2).info(`updated ${id} with additional subjects: ${JSON.stringify(r.missingSubjects)}`);
      else if (r.operation === "create") V(log, 2).info(`created ${id}`);
      else if (r.operation === "recreate") V(log, 2).info(`recreated ${id}`);
    } catch (e) {
      log.error(`unable to reconcile ${id}: ${errText(e)}`);
    }
  }
}

/** One pass; throws (to be retried) when storage does not answer or a migration fails. */
async function reconcileOnce(p: PolicyData, stores: ReadonlyMap<string, GenericStore>, log: Logger): Promise<void> {
  const get = (r: string) => {
    const s = stores.get(r);
    if (!s) throw new Error(`rbac/bootstrap-roles: ${r} are not served`);
    return s;
  };
  const namespaces = stores.get("namespaces");
  const [clusterRolesStore, clusterBindingsStore] = [get("clusterroles"), get("clusterrolebindings")];
  // Make sure storage is responding before reconciling.
  for (const [what, s] of [
    ["clusterroles", clusterRolesStore],
    ["clusterrolebindings", clusterBindingsStore],
  ] as const) {
    try {
      await s.list(undefined, {});
    } catch (e) {
      throw new Error(`unable to initialize ${what}: ${errText(e)}`, { cause: e });
    }
  }
  const cr = modifier(clusterRolesStore);
  const crb = modifier(clusterBindingsStore);
  await wrap("unable to prime aggregated clusterroles", () => primeAggregatedClusterRoles(p.clusterRolesToAggregate, cr));
  await wrap("unable to prime split ClusterRoleBindings", () => primeSplitClusterRoleBindings(p.clusterRoleBindingsToSplit, crb));
  await reconcileRoles("clusterrole", p.clusterRoles, cr, log);
  await reconcileBindings("clusterrolebinding", p.clusterRoleBindings, crb, log);
  await reconcileRoles("role", Object.values(p.roles).flat(), modifier(get("roles"), namespaces), log);
  await reconcileBindings("rolebinding", Object.values(p.roleBindings).flat(), modifier(get("rolebindings"), namespaces), log);
}

async function wrap(what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    throw new Error(`${what}: ${errText(e)}`, { cause: e });
  }
}

/**
 * EnsureRBACPolicy: reconciles `p` through the RBAC storages; a pass that fails as a whole
 * (storage down) is logged and retried every second for up to 30 s, then the error is thrown.
 */
export async function ensureRBACPolicy(
  p: PolicyData,
  stores: ReadonlyMap<string, GenericStore>,
  log: Logger = noopLogger,
  opts: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    try {
      await reconcileOnce(p, stores, log);
      return;
    } catch (e) {
      log.error(errText(e));
      if (Date.now() >= deadline) throw new Error(`unable to initialize roles: ${errText(e)}`, { cause: e });
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1_000));
    }
  }
}
