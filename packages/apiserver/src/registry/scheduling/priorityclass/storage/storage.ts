/**
 * PriorityClass REST storage (pkg/registry/scheduling/priorityclass/storage/storage.go): the
 * generic store, except that the system priority classes cannot be deleted.
 */
import { StatusError } from "@servicenet/api";
import { systemPriorityClasses } from "@servicenet/api/scheduling/v1";
import { GenericStore } from "../../../generic/store.ts";
import type { DeleteParams } from "../../../generic/options.ts";

/** The storage path (etcd key prefix `/registry/priorityclasses/`), as upstream's. */
export const priorityClassStoragePath = "priorityclasses";

/** REST.Delete: Forbidden for `system-node-critical` and `system-cluster-critical`. */
export class PriorityClassREST extends GenericStore {
  override async delete(namespace: string | undefined, name: string, p: DeleteParams = {}): ReturnType<GenericStore["delete"]> {
    if (systemPriorityClasses().some((c) => c.metadata.name === name))
      throw StatusError.forbidden(
        { group: "scheduling.k8s.io", resource: "priorityclasses" },
        name,
        "this is a system priority class and cannot be deleted",
      );
    return super.delete(namespace, name, p);
  }
}
