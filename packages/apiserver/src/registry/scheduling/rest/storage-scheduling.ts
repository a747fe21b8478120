/**
 * scheduling.k8s.io's post-start hook (pkg/registry/scheduling/rest/storage_scheduling.go
 * AddSystemPriorityClasses, hook `scheduling/bootstrap-system-priority-classes`): every system
 * PriorityClass is created when missing; an existing one is left alone.
 */
import { StatusError } from "@servicenet/api";
import { systemPriorityClasses } from "@servicenet/api/scheduling/v1";
import type { KubeObject } from "../../../storage/index.ts";
import type { GenericStore } from "../../generic/store.ts";

/** The hook's name, as upstream registers it. */
export const bootstrapSystemPriorityClassesHook = "scheduling/bootstrap-system-priority-classes";

/** Creates the system classes missing from `store` (AlreadyExists: another apiserver was first). */
export async function addSystemPriorityClasses(store: GenericStore): Promise<void> {
  for (const pc of systemPriorityClasses()) {
    try {
      await store.get(undefined, pc.metadata.name ?? "");
      continue;
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === "NotFound")) throw e;
    }
    const obj = structuredClone(pc) as unknown as KubeObject;
    // The versioned defaulting a loopback client's request body gets.
    store.strategy.defaults?.(obj);
    try {
      await store.create(undefined, obj);
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === "AlreadyExists")) throw e;
    }
  }
}
