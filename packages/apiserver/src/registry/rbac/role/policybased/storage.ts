/**
 * pkg/registry/rbac/role/policybased/storage.go: a Role may only grant rules its writer holds in
 * the namespace, unless the writer is in system:masters or may `escalate` roles.
 */
import { StatusError, type Role } from "@servicenet/api";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import type { GenericStoreConfig } from "../../../generic/store.ts";
import { escalationAllowed, roleEscalationAuthorized } from "../../escalation-check.ts";
import { isOnlyMutatingGCFields } from "../../helpers.ts";
import { PolicyBasedStore, type RBACStorageOptions } from "../../policybased.ts";
import { confirmNoEscalation } from "../../validation/escalation.ts";

const groupResource = { group: "rbac.authorization.k8s.io", resource: "roles" };

/** The Role storage with escalation prevention. */
export function newRoleStorage(store: Store, config: GenericStoreConfig, opts: RBACStorageOptions): PolicyBasedStore {
  return new PolicyBasedStore(store, config, opts, {
    allowed: async (user, namespace, name) =>
      escalationAllowed(user) ||
      (await roleEscalationAuthorized(user, opts.authorizer, { ...groupResource, apiGroup: groupResource.group, name, namespace })),
    check: async (user, namespace, obj: KubeObject, old) => {
      // Only the garbage collector's fields change: nothing is granted.
      if (old !== null && isOnlyMutatingGCFields(obj, old)) return;
      const role = obj as unknown as Role;
      const err = await confirmNoEscalation(user, namespace, opts.ruleResolver!, role.rules ?? []);
      if (err !== undefined) throw StatusError.forbidden(groupResource, role.metadata.name ?? "", err);
    },
  });
}
