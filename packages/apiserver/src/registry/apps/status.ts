/** The status rules the apps strategies share (pkg/registry/apps/deployment/strategy.go, replicaset/strategy.go). */
import type { KubeObject } from "../../storage/index.ts";

/**
 * PrepareForCreate: no status from the user (the zero status, which for a ReplicaSet still
 * serializes `replicas: 0`), generation 1.
 */
export function dropStatusOnCreate(zero: () => Record<string, unknown>): (o: KubeObject) => void {
  return (o) => {
    o["status"] = zero();
    o.metadata.generation = 1;
  };
}

/** The main resource's update keeps the stored status. */
export function keepStatusOf(o: KubeObject, old: KubeObject): void {
  o["status"] = structuredClone(old["status"] ?? {});
}

/** The status subresource's PrepareForUpdate: the stored spec and labels win. */
export function keepSpecAndLabels(o: KubeObject, old: KubeObject): void {
  o["spec"] = structuredClone(old["spec"]);
  if (old.metadata.labels === undefined) delete o.metadata.labels;
  else o.metadata.labels = structuredClone(old.metadata.labels);
}
