/**
 * The EventSink of the apiserver's own controllers (the default ServiceCIDR controller, the
 * ClusterIP and NodePort repair loops). Upstream they record through client-go's tools/events
 * with `EventSinkImpl` over the loopback client; here they run in process against storage, so
 * the sink writes the core/v1 Event (the shape both Event APIs serve) straight to the `events`
 * resource and patches a repeat's `count`, `lastTimestamp` and `message` in place. A patch of an
 * Event that is gone fails with NotFound, so the broadcaster re-creates it, as it does over HTTP.
 */
import type { Event } from "@servicenet/api";
import type { EventSink } from "@servicenet/client/tools/record";
import { withCreateMeta } from "../../storage/codec.ts";
import { objectKey, type KubeObject, type Store } from "../../storage/index.ts";

/** An EventSink writing to `store`. */
export function storeEventSink(store: Store): EventSink {
  const keyOf = (e: Event): string => objectKey("events", e.metadata.namespace || "default", e.metadata.name ?? "");
  return {
    async create(event) {
      const obj: KubeObject = withCreateMeta({ apiVersion: "v1", kind: "Event", ...event });
      return (await store.create(keyOf(event), obj)) as Event;
    },
    async patch(event, patch) {
      const out = await store.guaranteedUpdate(keyOf(event), (cur) => ({ ...cur, ...patch }), { ignoreNotFound: false });
      return out as Event;
    },
  };
}
