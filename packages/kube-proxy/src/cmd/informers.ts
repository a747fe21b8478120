/**
 * The informers feeding a Provider: Services, EndpointSlices (discovery.k8s.io/v1), ServiceCIDRs
 * (networking.k8s.io/v1) and this node, each @servicenet/client's SharedInformer, with objects
 * decoded through our schemas. kube-proxy is an ordinary API client: everything goes over HTTP.
 */
import * as k8s from "@kubernetes/client-node";
import { EndpointSliceSchema, NodeSchema, ServiceCIDRSchema, ServiceSchema } from "@servicenet/api";
import type { ServiceCIDR } from "@servicenet/api";
import { toPlain } from "@servicenet/client/rest";
import { SharedInformer, waitForCacheSync, type EventHandlers, type ObjectWithMeta, type PlainList } from "@servicenet/client/tools/cache";
import type { Logger } from "@servicenet/component-base/logs";
import type { Provider } from "../proxy/provider.ts";
import { serviceCIDRStrings } from "../proxy/provider.ts";

export interface RunningInformers {
  stop(): Promise<void>;
}

interface Spec<T extends ObjectWithMeta> {
  path: string;
  list: () => Promise<unknown>;
  listType: string;
  schema: { parse(v: unknown): T };
  fieldSelector?: string;
  handlers: EventHandlers<T>;
  /** Called once, after the handlers have seen the first list. */
  synced: () => void;
}

/** One informer with its handlers registered before it starts. */
function informer<T extends ObjectWithMeta>(
  kc: k8s.KubeConfig,
  s: Spec<T>,
  logger: Logger,
): { inf: SharedInformer<T>; synced: () => void } {
  const inf = new SharedInformer<T>({
    kubeConfig: kc,
    path: s.path,
    list: async () => toPlain<PlainList<T>>(await s.list(), s.listType),
    ...(s.fieldSelector !== undefined ? { fieldSelector: s.fieldSelector } : {}),
    transform: (o) => s.schema.parse(o),
    logger,
  });
  inf.addEventHandler(s.handlers);
  return { inf, synced: s.synced };
}

/**
 * Starts the informers (upstream's informerFactory.Start): it does not wait for them, as
 * kube-proxy serves /metrics and /healthz while the caches fill. Each `synced` runs once its
 * informer has delivered its first list.
 */
export async function startInformers(kc: k8s.KubeConfig, p: Provider, nodeName: string, logger: Logger): Promise<RunningInformers> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const discovery = kc.makeApiClient(k8s.DiscoveryV1Api);
  const networking = kc.makeApiClient(k8s.NetworkingV1Api);
  const cidrs = new Map<string, ServiceCIDR>();
  const cidrsChanged = () => p.onServiceCIDRsChanged(serviceCIDRStrings([...cidrs.values()]));
  // As upstream's NewProxyServer: this node only, by field selector on both LIST and WATCH.
  const nodeSelector = `metadata.name=${nodeName}`;
  const informers = [
    informer(
      kc,
      {
        path: "/api/v1/services",
        listType: "V1ServiceList",
        schema: ServiceSchema,
        list: () => core.listServiceForAllNamespaces(),
        handlers: { onAdd: (s) => p.onServiceAdd(s), onUpdate: (o, s) => p.onServiceUpdate(o, s), onDelete: (s) => p.onServiceDelete(s) },
        synced: () => p.onServiceSynced(),
      },
      logger,
    ),
    informer(
      kc,
      {
        path: "/apis/discovery.k8s.io/v1/endpointslices",
        listType: "V1EndpointSliceList",
        schema: EndpointSliceSchema,
        list: () => discovery.listEndpointSliceForAllNamespaces(),
        handlers: {
          onAdd: (s) => p.onEndpointSliceAdd(s),
          onUpdate: (o, s) => p.onEndpointSliceUpdate(o, s),
          onDelete: (s) => p.onEndpointSliceDelete(s),
        },
        synced: () => p.onEndpointSlicesSynced(),
      },
      logger,
    ),
    informer(
      kc,
      {
        path: "/apis/networking.k8s.io/v1/servicecidrs",
        listType: "V1ServiceCIDRList",
        schema: ServiceCIDRSchema,
        list: () => networking.listServiceCIDR(),
        handlers: {
          onAdd: (c) => (cidrs.set(c.metadata.name ?? "", c), cidrsChanged()),
          onUpdate: (_o, c) => (cidrs.set(c.metadata.name ?? "", c), cidrsChanged()),
          onDelete: (c) => (cidrs.delete(c.metadata.name ?? ""), cidrsChanged()),
        },
        synced: () => {},
      },
      logger,
    ),
    informer(
      kc,
      {
        path: "/api/v1/nodes",
        listType: "V1NodeList",
        schema: NodeSchema,
        fieldSelector: nodeSelector,
        list: () => core.listNode({ fieldSelector: nodeSelector }),
        handlers: { onAdd: (n) => p.onNodeAdd(n), onUpdate: (o, n) => p.onNodeUpdate(o, n), onDelete: (n) => p.onNodeDelete(n) },
        synced: () => p.onNodeSynced(),
      },
      logger,
    ),
  ];
  for (const { inf } of informers) await inf.start();
  const stopped = new AbortController();
  for (const { inf, synced } of informers) void waitForCacheSync(stopped.signal, [inf]).then((ok) => ok && synced());
  return {
    stop: async () => {
      stopped.abort();
      await Promise.all(informers.map(({ inf }) => inf.stop()));
    },
  };
}
