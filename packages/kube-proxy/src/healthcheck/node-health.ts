/** Feeds this node's informer events to the health server as well as to the proxier. */
import type { Node } from "@servicenet/api";
import type { Provider } from "../proxy/provider.ts";
import type { ProxierHealthServer } from "./proxier-health.ts";

/**
 * A Provider that also calls health.syncNode for every Node event, as upstream's NodeEligibleHandler
 * (pkg/proxy/node.go) sits next to the proxier on the node informer. Deletion counts as not eligible.
 */
export function withNodeHealth(p: Provider, health: Pick<ProxierHealthServer, "syncNode">): Provider {
  const deleted = (n: Node): Node => ({ ...n, metadata: { ...n.metadata, deletionTimestamp: n.metadata?.deletionTimestamp ?? "deleted" } });
  return {
    onServiceAdd: (s) => p.onServiceAdd(s),
    onServiceUpdate: (o, s) => p.onServiceUpdate(o, s),
    onServiceDelete: (s) => p.onServiceDelete(s),
    onServiceSynced: () => p.onServiceSynced(),
    onEndpointSliceAdd: (s) => p.onEndpointSliceAdd(s),
    onEndpointSliceUpdate: (o, s) => p.onEndpointSliceUpdate(o, s),
    onEndpointSliceDelete: (s) => p.onEndpointSliceDelete(s),
    onEndpointSlicesSynced: () => p.onEndpointSlicesSynced(),
    onNodeAdd: (n) => (health.syncNode(n), p.onNodeAdd(n)),
    onNodeUpdate: (o, n) => (health.syncNode(n), p.onNodeUpdate(o, n)),
    onNodeDelete: (n) => (health.syncNode(deleted(n)), p.onNodeDelete(n)),
    onNodeSynced: () => p.onNodeSynced(),
    onServiceCIDRsChanged: (c) => p.onServiceCIDRsChanged(c),
    sync: () => p.sync(),
  };
}
