/**
 * pkg/registry/rbac/rest/storage_rbac.go PolicyData.EnsureRBACPolicy, the post-start hook
 * `rbac/bootstrap-roles`: the bootstrap cluster roles and bindings are created or reconciled
 * (missing rules and subjects added, auto-update "false" respected) through the apiserver's own
 * storage, retried each second for up to 30 s while storage is unavailable.
 */
import { StatusError, type ClusterRole, type ClusterRoleBinding } from "@servicenet/api";
import type { GenericStore } from "../../generic/store.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { controllerRoleBindings, controllerRoles } from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller-policy.ts";
import {
  clusterRoleBindings,
  clusterRoles,
  clusterRolesToAggregate,
} from "../../../plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.ts";
import { reconcileRole, type RoleModifier } from "../reconciliation/reconcile-role.ts";
import { reconcileRoleBinding, type RoleBindingModifier } from "../reconciliation/reconcile-rolebindings.ts";

/** What the hook reconciles (PolicyData). */
export interface PolicyData {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  /** Old name → new aggregate-to-* name (primeAggregatedClusterRoles). */
  clusterRolesToAggregate: Record<string, string>;
}

/** The bootstrap policy servicenet ships (BootstrapPolicy). */
export function bootstrapPolicy(): PolicyData {
  return {
    clusterRoles: [...clusterRoles(), ...controllerRoles()],
    clusterRoleBindings: [...clusterRoleBindings(), ...controllerRoleBindings()],
    clusterRolesToAggregate: clusterRolesToAggregate(),
  };
}

const kinds = (gs: GenericStore) => ({
  get: async (name: string) => (await gs.get(undefined, name)) as unknown,
  create: async (obj: unknown) => (await gs.create(undefined, obj as KubeObject)) as unknown,
  update: async (obj: unknown) => {
    const o = obj as KubeObject;
    return (await gs.update(undefined, o.metadata.name ?? "", () => Promise.resolve(o))).object as unknown;
  },
});

function roleModifier(gs: GenericStore): RoleModifier {
  return kinds(gs) as RoleModifier;
}

function bindingModifier(gs: GenericStore): RoleBindingModifier {
  return {
    ...(kinds(gs) as Omit<RoleBindingModifier, "delete">),
    delete: async (name, uid) => void (await gs.delete(undefined, name, uid ? { preconditions: { uid } } : {})),
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

/** primeAggregatedClusterRoles: before admin/edit/view become aggregated, their rules move to the aggregate-to-* roles. */
async function primeAggregatedClusterRoles(toAggregate: Record<string, string>, roles: GenericStore): Promise<void> {
  for (const [oldName, newName] of Object.entries(toAggregate)) {
    if (await exists(roles, newName)) continue;
    let old: ClusterRole;
    try {
      old = await roles.get(undefined, oldName);
    } catch (e) {
      if (e instanceof StatusError && e.reason === "NotFound") continue;
      throw e;
    }
    // an aggregated role has already been migrated
    if (old.aggregationRule !== undefined) continue;
    const copy: ClusterRole = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: newName },
      rules: old.rules ?? null,
    };
    try {
      await roles.create(undefined, copy);
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === "AlreadyExists")) throw e;
    }
  }
}

async function exists(gs: GenericStore, name: string): Promise<boolean> {
  try {
    await gs.get(undefined, name);
    return true;
  } catch (e) {
    if (e instanceof StatusError && e.reason === "NotFound") return false;
    throw e;
  }
}

const group = "rbac.authorization.k8s.io";

/** One reconcile pass; errors on single objects are logged and skipped ("try to create as many as you can"). */
async function reconcileOnce(
  p: PolicyData,
  roles: GenericStore,
  bindings: GenericStore,
  log: (level: "info" | "warning" | "error", msg: string) => void,
): Promise<void> {
  await primeAggregatedClusterRoles(p.clusterRolesToAggregate, roles);
  for (const role of p.clusterRoles) {
    const name = role.metadata.name ?? "";
    try {
      const r = await retryOnConflict(() => reconcileRole(role, roleModifier(roles), { confirm: true }));
      if (r.protected && r.operation !== "none")
        log(
          "warning",
          `skipped reconcile-protected clusterrole.${group}/${name} with missing permissions: ${JSON.stringify(r.missingRules)}`,
        );
      else if (r.operation === "update")
        log("info", `updated clusterrole.${group}/${name} with additional permissions: ${JSON.stringify(r.missingRules)}`);
      else if (r.operation === "create") log("info", `created clusterrole.${group}/${name}`);
    } catch (e) {
      log("error", `unable to reconcile clusterrole.${group}/${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  for (const b of p.clusterRoleBindings) {
    const name = b.metadata.name ?? "";
    try {
      const r = await retryOnConflict(() => reconcileRoleBinding(b, bindingModifier(bindings), { confirm: true }));
      if (r.protected && r.operation !== "none")
        log(
          "warning",
          `skipped reconcile-protected clusterrolebinding.${group}/${name} with missing subjects: ${JSON.stringify(r.missingSubjects)}`,
        );
      else if (r.operation === "update")
        log("info", `updated clusterrolebinding.${group}/${name} with additional subjects: ${JSON.stringify(r.missingSubjects)}`);
      else if (r.operation === "create") log("info", `created clusterrolebinding.${group}/${name}`);
      else if (r.operation === "recreate") log("info", `recreated clusterrolebinding.${group}/${name}`);
    } catch (e) {
      log("error", `unable to reconcile clusterrolebinding.${group}/${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/**
 * EnsureRBACPolicy: reconciles `p` through the RBAC storages; a pass that fails as a whole
 * (storage down) is retried every second for up to 30 s, then the error is thrown.
 */
export async function ensureRBACPolicy(
  p: PolicyData,
  stores: ReadonlyMap<string, GenericStore>,
  log: (level: "info" | "warning" | "error", msg: string) => void = () => {},
  opts: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const roles = stores.get("clusterroles");
  const bindings = stores.get("clusterrolebindings");
  if (!roles || !bindings) throw new Error("rbac/bootstrap-roles: the RBAC storages are not served");
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    try {
      await reconcileOnce(p, roles, bindings, log);
      return;
    } catch (e) {
      log("error", `unable to initialize clusterroles: ${e instanceof Error ? e.message : String(e)}`);
      if (Date.now() >= deadline) throw e;
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1_000));
    }
  }
}
