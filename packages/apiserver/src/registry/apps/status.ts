/** The status subresource rule the apps strategies share (pkg/registry/apps/deployment/strategy.go, replicaset/strategy.go). */
import type { KubeObject } from "../../storage/index.ts";

/** The status subresource's PrepareForUpdate: the stored spec and labels win. */
export function keepSpecAndLabels(o: KubeObject, old: KubeObject): void {
  o["spec"] = structuredClone(old["spec"]);
  if (old.metadata.labels === undefined) delete o.metadata.labels;
  else o.metadata.labels = structuredClone(old.metadata.labels);
}

/** The status subresource's PrepareForUpdate of StatefulSets and DaemonSets: only the stored spec wins. */
export function keepSpec(o: KubeObject, old: KubeObject): void {
  o["spec"] = structuredClone(old["spec"]);
}
