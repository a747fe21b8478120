/** The CRD controllers' UpdateStatus of the copy they read from the informer's cache. */
import { isConflict, isNotFound } from "@servicenet/api";
import type { GenericStore } from "../../registry/generic/store.ts";
import type { CRDObject } from "../registry/customresourcedefinition/strategy.ts";

const staleCache = new Error("stale cache");

/**
 * Writes `mutate`'s change to the status of `cached` as UpdateStatus does with the cached copy:
 * false, and nothing written, when the CRD was deleted or changed meanwhile (its informer event
 * brings it back to the controller).
 */
export async function updateCachedCRDStatus(store: GenericStore, cached: CRDObject, mutate: (crd: CRDObject) => void): Promise<boolean> {
  const name = cached.metadata.name ?? "";
  try {
    await store.update(
      undefined,
      name,
      async (current) => {
        if (current === null || current.metadata.resourceVersion !== cached.metadata.resourceVersion) throw staleCache;
        const crd = structuredClone(current) as CRDObject;
        mutate(crd);
        return crd;
      },
      { subresource: "status" },
    );
    return true;
  } catch (e) {
    if (e === staleCache || isNotFound(e) || isConflict(e)) return false;
    throw e;
  }
}
