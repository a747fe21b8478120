/**
 * `getRollbackTo` / `setRollbackTo` of pkg/controller/deployment/rollback.go: extensions/v1beta1's
 * `spec.rollbackTo` survives in apps/v1 only as the `deprecated.deployment.rollback.to`
 * annotation (kubectl 1.33's `rollout undo` patches the template itself instead).
 */
import type { Deployment } from "@servicenet/api";
import { deprecatedRollbackToAnnotation } from "./util/annotations.ts";

/** The requested revision, or undefined when there is none or it is no integer (ignored, as upstream). */
export function getRollbackTo(d: Deployment): { revision: number } | undefined {
  const v = d.metadata.annotations?.[deprecatedRollbackToAnnotation];
  if (v === undefined || v === "" || !/^[+-]?\d+$/.test(v)) return undefined;
  return { revision: Number(v) };
}

/** Sets or (with undefined) clears the request. */
export function setRollbackTo(d: Deployment, to: { revision: number } | undefined): void {
  if (to === undefined) {
    if (d.metadata.annotations !== undefined) delete d.metadata.annotations[deprecatedRollbackToAnnotation];
    return;
  }
  (d.metadata.annotations ??= {})[deprecatedRollbackToAnnotation] = String(to.revision);
}
