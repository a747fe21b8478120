/**
 * PodDisruptionBudget REST storage (pkg/registry/policy/poddisruptionbudget/storage/storage.go):
 * the generic store with the status subresource, under upstream's etcd key prefix.
 */

/** The storage path (etcd key prefix `/registry/poddisruptionbudgets/`), as upstream's. */
export const podDisruptionBudgetStoragePath = "poddisruptionbudgets";
