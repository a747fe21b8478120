/**
 * upstream pkg/controlplane/reconcilers/endpointsadapter.go: reads and writes the Endpoints of the
 * `kubernetes` Service and keeps the EndpointSlice of the same name in step with it. Upstream goes
 * through the loopback client; we call the registry's REST storage in process, which runs the same
 * strategy (defaults, validation) a request would.
 */
import { isAlreadyExists, isIPv6String, isNotFound, type EndpointAddress, type EndpointPort, type Endpoints } from "@servicenet/api";
import type { GenericStore } from "../../registry/generic/store.ts";
import type { KubeObject } from "../../storage/index.ts";

/** The few verbs the adapter needs on one resource (a typed client's Get/Create/Update/Delete). */
export interface ObjectClient {
  get(namespace: string, name: string): Promise<KubeObject>;
  create(namespace: string, obj: KubeObject): Promise<KubeObject>;
  update(namespace: string, obj: KubeObject): Promise<KubeObject>;
  delete(namespace: string, name: string): Promise<void>;
}

/** An ObjectClient over the registry's REST storage of one resource. */
export function registryClient(store: GenericStore): ObjectClient {
  const defaulted = (obj: KubeObject): KubeObject => {
    const copy = structuredClone(obj);
    store.strategy.defaults?.(copy);
    return copy;
  };
  return {
    get: (ns, name) => store.get(ns, name),
    create: (ns, obj) => store.create(ns, defaulted(obj)),
    update: async (ns, obj) => (await store.update(ns, obj.metadata.name ?? "", async () => defaulted(obj))).object,
    delete: async (ns, name) => void (await store.delete(ns, name)),
  };
}

/** discovery.LabelServiceName. */
const labelServiceName = "kubernetes.io/service-name";

/** apiequality.Semantic.DeepEqual as far as JSON goes: absent, null, [] and {} are all "empty". */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalize);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const n = normalize((v as Record<string, unknown>)[k]);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null ? undefined : v;
}

/** upstream allAddressesIPv6. */
function allAddressesIPv6(addresses: readonly EndpointAddress[]): boolean {
  return addresses.length > 0 && addresses.every((a) => isIPv6String(a.ip));
}

/** upstream endpointFromAddress / getEndpointsFromAddresses. */
function endpointsFromAddresses(addresses: readonly EndpointAddress[], addressType: string, ready: boolean): KubeObject[] {
  const v6 = addressType === "IPv6";
  return addresses
    .filter((a) => isIPv6String(a.ip) === v6)
    .map((a) => {
      const ep: Record<string, unknown> = { addresses: [a.ip], conditions: { ready } };
      if (a.targetRef !== undefined) ep["targetRef"] = a.targetRef;
      if (a.nodeName !== undefined) ep["nodeName"] = a.nodeName;
      return ep as KubeObject;
    });
}

/** upstream endpointSliceFromEndpoints: the slice named and labelled after the Endpoints. */
export function endpointSliceFromEndpoints(endpoints: Endpoints): KubeObject {
  const name = endpoints.metadata?.name ?? "";
  const slice: KubeObject = {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name, namespace: endpoints.metadata?.namespace ?? "", labels: { [labelServiceName]: name } },
    // TODO upstream: dual-stack; the type follows the first subset's addresses.
    addressType: "IPv4",
    endpoints: [],
  };
  const subset = endpoints.subsets?.[0];
  if (subset) {
    const ports = (subset.ports ?? []).map((p: EndpointPort) => ({ name: p.name ?? "", port: p.port, protocol: p.protocol ?? "TCP" }));
    if (ports.length > 0) slice["ports"] = ports;
    if (allAddressesIPv6([...(subset.addresses ?? []), ...(subset.notReadyAddresses ?? [])])) slice["addressType"] = "IPv6";
    const type = slice["addressType"] as string;
    slice["endpoints"] = [
      ...endpointsFromAddresses(subset.addresses ?? [], type, true),
      ...endpointsFromAddresses(subset.notReadyAddresses ?? [], type, false),
    ];
  }
  return slice;
}

/** upstream EndpointsAdapter (the 1.33 one: Endpoints first, the slice derived from them). */
export class EndpointsAdapter {
  readonly endpoints: ObjectClient;
  readonly endpointSlices: ObjectClient;

  constructor(endpoints: ObjectClient, endpointSlices: ObjectClient) {
    this.endpoints = endpoints;
    this.endpointSlices = endpointSlices;
  }

  get(namespace: string, name: string): Promise<KubeObject> {
    return this.endpoints.get(namespace, name);
  }

  /** Creates the Endpoints and then its EndpointSlice. */
  async create(namespace: string, endpoints: KubeObject): Promise<KubeObject> {
    const created = await this.endpoints.create(namespace, endpoints);
    await this.ensureEndpointSliceFromEndpoints(namespace, created);
    return created;
  }

  /** Updates the Endpoints and then its EndpointSlice. */
  async update(namespace: string, endpoints: KubeObject): Promise<KubeObject> {
    const updated = await this.endpoints.update(namespace, endpoints);
    await this.ensureEndpointSliceFromEndpoints(namespace, updated);
    return updated;
  }

  /** upstream EnsureEndpointSliceFromEndpoints: create, replace (address type changed) or update the slice. */
  async ensureEndpointSliceFromEndpoints(namespace: string, endpoints: KubeObject): Promise<void> {
    const want = endpointSliceFromEndpoints(endpoints);
    const name = want.metadata.name ?? "";
    let current: KubeObject;
    try {
      current = await this.endpointSlices.get(namespace, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      try {
        await this.endpointSlices.create(namespace, want);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      return;
    }
    // addressType is immutable: a slice of the other type is replaced.
    if (current["addressType"] !== want["addressType"]) {
      await this.endpointSlices.delete(namespace, name);
      await this.endpointSlices.create(namespace, want);
      return;
    }
    if (
      semanticEqual(current["endpoints"], want["endpoints"]) &&
      semanticEqual(current["ports"], want["ports"]) &&
      semanticEqual(current.metadata["labels"], want.metadata["labels"])
    )
      return;
    await this.endpointSlices.update(namespace, want);
  }
}
