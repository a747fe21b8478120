/**
 * The garbage collector's Warning events (upstream's event recorder with source
 * `garbage-collector-controller`): OwnerRefInvalidNamespace on a dependent whose owner reference
 * names a namespaced owner in another namespace.
 */
import type { EventRecorder } from "@servicenet/client/tools/record";
import type { InvalidOwnerRefReporter } from "./graph-builder.ts";

/** The source upstream's garbage collector records its events with. */
export const garbageCollectorEventSource = { component: "garbage-collector-controller" } as const;

/** A reporter that records a Warning Event on the dependent (in "default" for cluster-scoped ones, as client-go's recorder). */
export function invalidOwnerRefEventReporter(recorder: EventRecorder): InvalidOwnerRefReporter {
  return (dep, message) =>
    recorder.event(
      { apiVersion: dep.apiVersion, kind: dep.kind, name: dep.name, namespace: dep.namespace, uid: dep.uid },
      "Warning",
      "OwnerRefInvalidNamespace",
      message,
    );
}
