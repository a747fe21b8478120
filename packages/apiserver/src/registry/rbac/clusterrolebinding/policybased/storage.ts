/**
 * pkg/registry/rbac/clusterrolebinding/policybased/storage.go: a ClusterRoleBinding may only bind
 * a ClusterRole whose rules its writer holds cluster-wide, unless the writer is in system:masters
 * or may `bind` that role (checked with namespace "").
 */
import { StatusError, type ClusterRoleBinding } from "@servicenet/api";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import type { GenericStoreConfig } from "../../../generic/store.ts";
import { bindingAuthorized, escalationAllowed } from "../../escalation-check.ts";
import { isOnlyMutatingGCFields } from "../../helpers.ts";
import { PolicyBasedStore, type RBACStorageOptions } from "../../policybased.ts";
import { confirmNoEscalation } from "../../validation/escalation.ts";

const groupResource = { group: "rbac.authorization.k8s.io", resource: "clusterrolebindings" };

/** The ClusterRoleBinding storage with bind and escalation prevention. */
export function newClusterRoleBindingStorage(store: Store, config: GenericStoreConfig, opts: RBACStorageOptions): PolicyBasedStore {
  return new PolicyBasedStore(store, config, opts, {
    allowed: async (user) => escalationAllowed(user),
    check: async (user, _namespace, obj: KubeObject, old) => {
      const namespace = "";
      if (old !== null && isOnlyMutatingGCFields(obj, old)) return;
      const binding = obj as unknown as ClusterRoleBinding;
      if (await bindingAuthorized(user, binding.roleRef, namespace, opts.authorizer)) return;
      const resolver = opts.ruleResolver!;
      const rules = await resolver.getRoleReferenceRules(binding.roleRef, namespace);
      const err = await confirmNoEscalation(user, namespace, resolver, rules);
      if (err !== undefined) throw StatusError.forbidden(groupResource, binding.metadata.name ?? "", err);
    },
  });
}
