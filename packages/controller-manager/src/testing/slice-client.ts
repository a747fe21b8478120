/** An EndpointSlice client whose writes land in an in-memory informer at once, as the watch would bring them. */
import type { EndpointSlice } from "@servicenet/api";
import type { MemoryInformer } from "@servicenet/client/tools/cache";
import type { EndpointSliceClient } from "../endpointslice/endpointslice-controller.ts";

/**
 * Writes into `slices`: a create is named `<generateName>created-<n>`, every stored slice gets a new
 * resourceVersion (so a controller's tracker knows its writes when it reads them back); `onWrite`
 * runs before each write lands.
 */
export function informerSliceClient(slices: MemoryInformer<EndpointSlice>, onWrite?: () => void): EndpointSliceClient {
  let n = 0;
  let rv = 100;
  const stored = (ns: string, s: EndpointSlice): EndpointSlice => {
    onWrite?.();
    const name = s.metadata.name ?? `${s.metadata.generateName}created-${++n}`;
    const out = { ...s, metadata: { ...s.metadata, name, namespace: ns, resourceVersion: String(++rv) } };
    slices.set(out);
    return out;
  };
  return {
    create: (ns, s) => Promise.resolve(stored(ns, s)),
    update: (ns, s) => Promise.resolve(stored(ns, s)),
    delete: (ns, name) => Promise.resolve(void (onWrite?.(), slices.remove(`${ns}/${name}`))),
  };
}
