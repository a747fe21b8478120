/**
 * `pods/eviction` in the resource table, as pkg/registry/core/pod/storage/storage.go NewStorage
 * builds it (`newEvictionStorage(&statusStore, podDisruptionClient)`): the eviction REST reads and
 * writes PodDisruptionBudgets through their storage, found at request time.
 */
import { StatusError } from "@servicenet/api";
import type { GenericStore } from "../../generic/store.ts";
import { newEvictionREST } from "../pod/storage/eviction.ts";
import { podDisruptionBudgetStoragePath } from "../../policy/poddisruptionbudget/storage/storage.ts";
import type { ResourceDef } from "../../../server/resource-def.ts";

/** The table with `pods/eviction` (create only) on every core/v1 pods entry. */
export function withEvictionSubresource(
  resources: readonly ResourceDef[],
  stores: () => ReadonlyMap<string, GenericStore>,
): readonly ResourceDef[] {
  const eviction = newEvictionREST(() => {
    const s = stores().get(podDisruptionBudgetStoragePath);
    // Without policy/v1 served (runtime-config) there is no budget to read: upstream's client would 404.
    if (s === undefined) throw StatusError.notFound({ group: "policy", resource: "poddisruptionbudgets" }, "");
    return s;
  });
  return resources.map((r) =>
    r.group === "" && r.resource === "pods"
      ? {
          ...r,
          subresources: [...r.subresources, "eviction"].sort(),
          subresourceVerbs: { ...r.subresourceVerbs, eviction: ["create"] },
          subresourceCreate: { ...r.subresourceCreate, eviction },
        }
      : r,
  );
}
