/**
 * pkg/registry/rbac/rest/storage_rbac.go's storage map: the four RBAC kinds, each behind its
 * policy-based (escalation-preventing) storage.
 */
import type { Store } from "../../../storage/index.ts";
import type { GenericStore, GenericStoreConfig } from "../../generic/store.ts";
import { newClusterRoleStorage } from "../clusterrole/policybased/storage.ts";
import { newClusterRoleBindingStorage } from "../clusterrolebinding/policybased/storage.ts";
import type { RBACStorageOptions } from "../policybased.ts";
import { newRoleStorage } from "../role/policybased/storage.ts";
import { newRoleBindingStorage } from "../rolebinding/policybased/storage.ts";

type NewStorage = (store: Store, config: GenericStoreConfig, opts: RBACStorageOptions) => GenericStore;

const byStoragePath: Readonly<Record<string, NewStorage>> = {
  roles: newRoleStorage,
  clusterroles: newClusterRoleStorage,
  rolebindings: newRoleBindingStorage,
  clusterrolebindings: newClusterRoleBindingStorage,
};

/** The RBAC storage for a storage path, or undefined for other resources. */
export function newRBACStorage(store: Store, config: GenericStoreConfig, opts: RBACStorageOptions): GenericStore | undefined {
  if (config.group !== "rbac.authorization.k8s.io") return undefined;
  return byStoragePath[config.storagePath]?.(store, config, opts);
}
