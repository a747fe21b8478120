/**
 * How a webhook's `clientConfig.service` becomes an address to dial (k8s.io/apiserver/pkg/util/webhook
 * serviceresolver.go ServiceResolver; kube-aggregator/pkg/apiserver/resolvers.go
 * NewEndpointServiceResolver and NewClusterIPServiceResolver; kube-apiserver's buildServiceResolver
 * picks one by `--enable-aggregator-routing`). Services and EndpointSlices are read through
 * informers over the server's own storage, started on the first resolution so a server without
 * service-referenced webhooks keeps no such caches. A resolution reads the Service's own
 * EndpointSlices through an index, as upstream's lister selects them by namespace and the
 * `kubernetes.io/service-name` label, never scanning the others.
 */
import type { Service } from "@servicenet/api/core/v1";
import { endpointSliceServiceNameLabel, type EndpointSlice } from "@servicenet/api/discovery/v1";
import type { KubeObject, Store } from "../../storage/index.ts";
import { StoreInformer } from "../informer/store-informer.ts";
import { resolveCluster, resolveEndpoint, type ResolvedAddress } from "../proxy/proxy.ts";

/** ServiceResolver.ResolveEndpoint: the address for `port` of Service `namespace/name`; throws upstream's error. */
export interface ServiceResolver {
  resolveEndpoint(namespace: string, name: string, port: number): Promise<ResolvedAddress>;
  stop(): void;
}

export interface ServiceResolverOptions {
  store: Store;
  /** `--enable-aggregator-routing`: an endpoint of the Service rather than its ClusterIP. */
  enableAggregatorRouting: boolean;
}

type Cached<T> = T & KubeObject;

/** The EndpointSlices' index by `namespace/<kubernetes.io/service-name>`: a resolution reads its Service's slices only. */
export const endpointSliceServiceIndex = "namespace/service-name";

function serviceIndexFunc(s: Cached<EndpointSlice>): string[] {
  const svc = s.metadata.labels?.[endpointSliceServiceNameLabel];
  return svc !== undefined ? [`${s.metadata.namespace ?? ""}/${svc}`] : [];
}

/**
 * buildServiceResolver: endpoint routing (a ready EndpointSlice endpoint and its port) with
 * `enableAggregatorRouting`, else the ClusterIP.
 */
export function newServiceResolver(o: ServiceResolverOptions): ServiceResolver {
  let services: StoreInformer<Cached<Service>> | undefined;
  let slices: StoreInformer<Cached<EndpointSlice>> | undefined;
  const synced = async <T extends KubeObject>(inf: StoreInformer<T>): Promise<StoreInformer<T>> => {
    inf.start();
    if (!inf.hasSynced()) await inf.waitForSync();
    return inf;
  };
  return {
    async resolveEndpoint(namespace, name, port) {
      services ??= new StoreInformer<Cached<Service>>(o.store, "services/specs");
      const svcs = await synced(services);
      const getService = (ns: string, n: string): Service | undefined => svcs.get(`${ns}/${n}`);
      if (!o.enableAggregatorRouting) return resolveCluster(getService, namespace, name, port);
      slices ??= new StoreInformer<Cached<EndpointSlice>>(o.store, "endpointslices", {
        indexers: { [endpointSliceServiceIndex]: serviceIndexFunc },
      });
      const eps = await synced(slices);
      return resolveEndpoint(getService, (ns, svc) => eps.byIndex(endpointSliceServiceIndex, `${ns}/${svc}`), namespace, name, port);
    },
    stop() {
      services?.stop();
      slices?.stop();
    },
  };
}
