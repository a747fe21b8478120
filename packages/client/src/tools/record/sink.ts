/**
 * The EventSink of a component talking HTTP (client-go's `typedcorev1.EventSinkImpl`): Events
 * created with POST and repeats patched with a strategic-merge patch, through client-node.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type CoreV1Event, type KubeConfig } from "@kubernetes/client-node";
import type { Event } from "@servicenet/api";
import { asBody, toPlain } from "../../rest/index.ts";
import type { EventSink } from "./event.ts";

/** An EventSink writing core/v1 Events to the apiserver of `kc`. */
export function clientNodeEventSink(kc: KubeConfig): EventSink {
  const api = kc.makeApiClient(CoreV1Api);
  return {
    async create(event) {
      const ns = event.metadata.namespace ?? "default";
      const out = await api.createNamespacedEvent({
        namespace: ns,
        body: asBody<CoreV1Event>({ apiVersion: "v1", kind: "Event", ...event }),
      });
      return toPlain<Event>(out, "CoreV1Event");
    },
    async patch(event, patch) {
      const out = await api.patchNamespacedEvent(
        { name: event.metadata.name ?? "", namespace: event.metadata.namespace ?? "default", body: patch },
        setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
      );
      return toPlain<Event>(out, "CoreV1Event");
    },
  };
}
