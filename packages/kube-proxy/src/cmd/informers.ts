/**
 * ListWatch informers (client-node) feeding a Provider: Services, EndpointSlices
 * (discovery.k8s.io/v1), ServiceCIDRs (networking.k8s.io/v1) and this node.
 * kube-proxy is an ordinary API client: everything goes over HTTP.
 */
import * as k8s from "@kubernetes/client-node";
import { EndpointSliceSchema, NodeSchema, ServiceCIDRSchema, ServiceSchema } from "@servicenet/api";
import type { ServiceCIDR } from "@servicenet/api";
import type { Provider } from "../proxy/provider.ts";
import { serviceCIDRStrings } from "../proxy/provider.ts";

export interface RunningInformers {
  stop(): Promise<void>;
}

/** client-node objects carry Dates and class instances: back to JSON, then through our schemas. */
function decode<T>(schema: { parse(v: unknown): T }, obj: unknown): T {
  return schema.parse(JSON.parse(JSON.stringify(obj)));
}

const keyOf = (o: k8s.KubernetesObject) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;

interface Handlers<T> {
  add(o: T): void;
  update(old: T, o: T): void;
  delete(o: T): void;
  synced(): void;
}

/** One informer; `synced` fires once, after the handlers have seen the first list. */
function watchResource<T>(
  kc: k8s.KubeConfig,
  path: string,
  list: () => Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>,
  schema: { parse(v: unknown): T },
  h: Handlers<T>,
  log: (msg: string) => void,
  stopped: () => boolean,
): k8s.Informer<k8s.KubernetesObject> {
  const seen = new Map<string, T>();
  let synced = false;
  const listAndMark = async () => {
    const l = await list();
    // The informer hands the items to the add/update handlers synchronously after this
    // promise resolves; setImmediate runs after that.
    if (!synced) setImmediate(() => ((synced = true), h.synced()));
    return l;
  };
  const inf = k8s.makeInformer(kc, path, listAndMark);
  const upsert = (raw: k8s.KubernetesObject) => {
    const o = decode(schema, raw);
    const old = seen.get(keyOf(raw));
    seen.set(keyOf(raw), o);
    if (old === undefined) h.add(o);
    else h.update(old, o);
  };
  inf.on("add", upsert);
  inf.on("update", upsert);
  inf.on("delete", (raw) => {
    const old = seen.get(keyOf(raw)) ?? decode(schema, raw);
    seen.delete(keyOf(raw));
    h.delete(old);
  });
  inf.on("error", (err: unknown) => {
    if (stopped()) return;
    log(`watch ${path} failed, restarting in 2s: ${String(err)}`);
    setTimeout(() => void inf.start().catch(() => {}), 2000).unref();
  });
  return inf;
}

/** Starts the informers and resolves once all have listed. */
export async function startInformers(kc: k8s.KubeConfig, p: Provider, nodeName: string, log: (msg: string) => void): Promise<RunningInformers> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const discovery = kc.makeApiClient(k8s.DiscoveryV1Api);
  const networking = kc.makeApiClient(k8s.NetworkingV1Api);
  const cidrs = new Map<string, ServiceCIDR>();
  let stopped = false;
  const isStopped = () => stopped;
  const cidrsChanged = () => p.onServiceCIDRsChanged(serviceCIDRStrings([...cidrs.values()]));
  const informers = [
    watchResource(kc, "/api/v1/services", () => core.listServiceForAllNamespaces(), ServiceSchema, {
      add: (s) => p.onServiceAdd(s),
      update: (o, s) => p.onServiceUpdate(o, s),
      delete: (s) => p.onServiceDelete(s),
      synced: () => p.onServiceSynced(),
    }, log, isStopped),
    watchResource(kc, "/apis/discovery.k8s.io/v1/endpointslices", () => discovery.listEndpointSliceForAllNamespaces(), EndpointSliceSchema, {
      add: (s) => p.onEndpointSliceAdd(s),
      update: (o, s) => p.onEndpointSliceUpdate(o, s),
      delete: (s) => p.onEndpointSliceDelete(s),
      synced: () => p.onEndpointSlicesSynced(),
    }, log, isStopped),
    watchResource(kc, "/apis/networking.k8s.io/v1/servicecidrs", () => networking.listServiceCIDR(), ServiceCIDRSchema, {
      add: (c) => (cidrs.set(c.metadata.name ?? "", c), cidrsChanged()),
      update: (_o, c) => (cidrs.set(c.metadata.name ?? "", c), cidrsChanged()),
      delete: (c) => (cidrs.delete(c.metadata.name ?? ""), cidrsChanged()),
      synced: () => {},
    }, log, isStopped),
    watchResource(kc, "/api/v1/nodes", () => core.listNode({ fieldSelector: `metadata.name=${nodeName}` }), NodeSchema, {
      add: (n) => p.onNodeAdd(n),
      update: (o, n) => p.onNodeUpdate(o, n),
      delete: (n) => p.onNodeDelete(n),
      synced: () => p.onNodeSynced(),
      // The watch sees every Node (makeInformer takes no field selector); the proxiers ignore other nodes.
    }, log, isStopped),
  ];
  await Promise.all(informers.map((i) => i.start()));
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(informers.map((i) => i.stop()));
    },
  };
}
