/**
 * pkg/registry/rbac/clusterrole/policybased/storage.go: a ClusterRole may only grant rules its
 * writer holds cluster-wide, unless the writer is in system:masters or may `escalate`
 * clusterroles; setting or changing an aggregationRule (which can gather anything) needs `*` on
 * everything.
 */
import { StatusError, type ClusterRole, type PolicyRule } from "@servicenet/api";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import type { GenericStoreConfig } from "../../../generic/store.ts";
import { escalationAllowed, roleEscalationAuthorized } from "../../escalation-check.ts";
import { isOnlyMutatingGCFields } from "../../helpers.ts";
import { PolicyBasedStore, type RBACStorageOptions } from "../../policybased.ts";
import { confirmNoEscalation } from "../../validation/escalation.ts";

const groupResource = { group: "rbac.authorization.k8s.io", resource: "clusterroles" };

/** cluster-admin's rules: what an aggregationRule may need. */
const fullAuthority: PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

const hasAggregationRule = (r: ClusterRole | null): boolean => (r?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;

/** The ClusterRole storage with escalation prevention. */
export function newClusterRoleStorage(store: Store, config: GenericStoreConfig, opts: RBACStorageOptions): PolicyBasedStore {
  return new PolicyBasedStore(store, config, opts, {
    allowed: async (user, namespace, name) =>
      escalationAllowed(user) ||
      (await roleEscalationAuthorized(user, opts.authorizer, { ...groupResource, apiGroup: groupResource.group, name, namespace })),
    check: async (user, _namespace, obj: KubeObject, old) => {
      if (old !== null && isOnlyMutatingGCFields(obj, old)) return;
      const role = obj as unknown as ClusterRole;
      const name = role.metadata.name ?? "";
      const resolver = opts.ruleResolver!;
      const err = await confirmNoEscalation(user, "", resolver, role.rules ?? []);
      if (err !== undefined) throw StatusError.forbidden(groupResource, name, err);
      if (hasAggregationRule(role) || hasAggregationRule(old)) {
        if ((await confirmNoEscalation(user, "", resolver, fullAuthority)) !== undefined)
          throw StatusError.forbidden(groupResource, name, "must have cluster-admin privileges to use the aggregationRule");
      }
    },
  });
}
