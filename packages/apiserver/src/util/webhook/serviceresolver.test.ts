/**
 * The endpoint-routing resolver reads a Service's EndpointSlices through the
 * `namespace/kubernetes.io/service-name` index (as upstream's lister selects them), not by
 * scanning every cached slice (kube-aggregator/pkg/apiserver/resolvers.go NewEndpointServiceResolver).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createStore, objectKey, type KubeObject, type Store } from "../../storage/index.ts";
import { StoreInformer } from "../informer/store-informer.ts";
import { endpointSliceServiceIndex, newServiceResolver } from "./serviceresolver.ts";

const service = (ns: string, name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace: ns },
  spec: { type: "ClusterIP", clusterIP: "10.0.0.10", clusterIPs: ["10.0.0.10"], ports: [{ name: "", port: 443, targetPort: 8443 }] },
});

const slice = (ns: string, name: string, svc: string, address: string): KubeObject => ({
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { name, namespace: ns, labels: { "kubernetes.io/service-name": svc } },
  addressType: "IPv4",
  endpoints: [{ addresses: [address], conditions: { ready: true } }],
  ports: [{ name: "", port: 8443, protocol: "TCP" }],
});

describe("ServiceResolver with --enable-aggregator-routing", () => {
  let store: Store | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await store?.close();
  });

  it("resolves from the Service's own slices through the index, without listing the others", async () => {
    store = await createStore({ backend: "memory" });
    await store.create(objectKey("services/specs", "webhooks", "hook"), service("webhooks", "hook"));
    await store.create(objectKey("endpointslices", "webhooks", "hook-abc"), slice("webhooks", "hook-abc", "hook", "10.1.0.5"));
    for (let i = 0; i < 20; i++) {
      await store.create(objectKey("endpointslices", `ns-${i}`, `hook-${i}`), slice(`ns-${i}`, `hook-${i}`, "hook", `10.2.0.${i}`));
      await store.create(
        objectKey("endpointslices", "webhooks", `other-${i}`),
        slice("webhooks", `other-${i}`, `other-${i}`, `10.3.0.${i}`),
      );
    }
    const list = vi.spyOn(StoreInformer.prototype, "list");
    const byIndex = vi.spyOn(StoreInformer.prototype, "byIndex");
    const resolver = newServiceResolver({ store, enableAggregatorRouting: true });
    try {
      expect(await resolver.resolveEndpoint("webhooks", "hook", 443)).toEqual({ host: "10.1.0.5", port: 8443 });
    } finally {
      resolver.stop();
    }
    expect(list).not.toHaveBeenCalled();
    expect(byIndex).toHaveBeenCalledWith(endpointSliceServiceIndex, "webhooks/hook");
    expect(byIndex.mock.results.map((r) => (r.value as KubeObject[]).map((s) => s.metadata.name))).toEqual([["hook-abc"]]);
  });
});
