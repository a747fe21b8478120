/**
 * The objects of the kubectl differential test: every Service shape
 * (single-stack IPv4/IPv6, dual-stack in both orders, headless with and
 * without selector, NodePort, LoadBalancer with status, ExternalName, with and
 * without endpoints and events), hand-made Endpoints/EndpointSlices/Events,
 * ServiceCIDRs (single, dual, one held in deletion by a custom finalizer) and
 * IPAddresses with a parentRef. Slice ports always carry a name ("" for an
 * unnamed port, as the EndpointSlice controller writes it): kubectl 1.33's
 * describe dereferences it and panics on a nil name. Event times lie ten days back so their ages
 * ("10d") cannot change while the test runs.
 */
import type { Rest } from "./rest.ts";

export const ns = "default";
export const otherNS = "e2e-kubectl-other";
/** The finalizer that keeps `cidr-deleting` in deletion until cleanup removes it. */
export const holdFinalizer = "e2e.servicenet.io/hold";

type Obj = Record<string, unknown>;
const port = (p: number, target: number | string, name?: string): Obj => ({
  ...(name ? { name } : {}),
  port: p,
  targetPort: target,
  protocol: "TCP",
});

function service(name: string, spec: Obj, namespace = ns, labels: Record<string, string> = { app: name }): Obj {
  return { apiVersion: "v1", kind: "Service", metadata: { name, namespace, labels }, spec };
}

/** The Services, in creation order. */
export const services: Obj[] = [
  service("web-v4", { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv4"], selector: { app: "web-v4" }, ports: [port(80, 8080, "http")] }),
  service("web-v6", { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv6"], selector: { app: "web-v6" }, ports: [port(80, 8080)] }),
  service("dual-v4v6", {
    ipFamilyPolicy: "PreferDualStack",
    ipFamilies: ["IPv4", "IPv6"],
    selector: { app: "dual" },
    ports: [port(80, 8080, "http"), port(443, 8443, "https")],
  }),
  service("dual-v6v4", {
    ipFamilyPolicy: "RequireDualStack",
    ipFamilies: ["IPv6", "IPv4"],
    selector: { app: "dual" },
    ports: [port(53, 5353)],
  }),
  service("headless-sel", { clusterIP: "None", selector: { app: "db" }, ports: [port(5432, 5432)] }),
  service("headless-nosel", { clusterIP: "None", ports: [port(9000, 9000)] }),
  service("nodeport", { type: "NodePort", selector: { app: "np" }, externalIPs: ["192.0.2.50"], ports: [port(80, 8080)] }),
  service("lb", {
    type: "LoadBalancer",
    ipFamilyPolicy: "PreferDualStack",
    selector: { app: "lb" },
    loadBalancerSourceRanges: ["203.0.113.0/24"],
    ports: [port(443, 8443)],
  }),
  service("extname", { type: "ExternalName", externalName: "db.example.com" }),
  service("no-endpoints", { selector: { app: "nothing" }, ports: [port(8080, 8080)], sessionAffinity: "ClientIP" }),
  service("web-other", { selector: { app: "other" }, ports: [port(80, 80)] }, otherNS),
];

/** status.loadBalancer of `lb`, written through the status subresource. */
export const lbIngress = [{ ip: "192.0.2.10", ipMode: "VIP" }, { ip: "2001:db8::10" }, { hostname: "lb.example.com" }];

function slice(svc: string, suffix: string, addressType: "IPv4" | "IPv6", addresses: string[][], ports: Obj[], ready = true): Obj {
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: `${svc}-${suffix}`,
      namespace: ns,
      labels: { "kubernetes.io/service-name": svc, "endpointslice.kubernetes.io/managed-by": "e2e.servicenet.io" },
    },
    addressType,
    endpoints: addresses.map((a, i) => ({
      addresses: a,
      conditions: { ready: ready && i !== 2, serving: true, terminating: false },
      nodeName: `node-${i}`,
      targetRef: { kind: "Pod", namespace: ns, name: `${svc}-pod-${i}` },
    })),
    ports,
  };
}

export const endpointSlices: Obj[] = [
  slice("web-v4", "a1b2c", "IPv4", [["10.244.0.5"], ["10.244.1.6"], ["10.244.2.7"]], [{ name: "http", port: 8080, protocol: "TCP" }]),
  slice(
    "dual-v4v6",
    "4xq7z",
    "IPv4",
    [["10.244.0.8"], ["10.244.1.9"]],
    [
      { name: "http", port: 8080, protocol: "TCP" },
      { name: "https", port: 8443, protocol: "TCP" },
    ],
  ),
  slice(
    "dual-v4v6",
    "6pk2m",
    "IPv6",
    [["fd00:244::8"], ["fd00:244:1::9"]],
    [
      { name: "http", port: 8080, protocol: "TCP" },
      { name: "https", port: 8443, protocol: "TCP" },
    ],
  ),
  slice(
    "headless-sel",
    "h8d9s",
    "IPv4",
    [["10.244.3.1"], ["10.244.3.2"], ["10.244.3.3"], ["10.244.3.4"]],
    [{ name: "", port: 5432, protocol: "TCP" }],
    false,
  ),
];

export const endpoints: Obj[] = [
  {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "web-v4", namespace: ns, labels: { app: "web-v4" } },
    subsets: [
      {
        addresses: [{ ip: "10.244.0.5" }, { ip: "10.244.1.6" }],
        notReadyAddresses: [{ ip: "10.244.2.7" }],
        ports: [{ name: "http", port: 8080, protocol: "TCP" }],
      },
    ],
  },
  {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "headless-nosel", namespace: ns },
    subsets: [
      {
        addresses: [{ ip: "192.0.2.100" }, { ip: "192.0.2.101" }, { ip: "192.0.2.102" }, { ip: "192.0.2.103" }],
        ports: [{ port: 9000, protocol: "TCP" }],
      },
    ],
  },
];

function event(
  name: string,
  kind: string,
  objName: string,
  objNS: string,
  type: string,
  reason: string,
  message: string,
  count: number,
  apiVersion = "v1",
): Obj {
  const first = new Date(Date.now() - 10 * 24 * 3600_000 - 3600_000).toISOString().replace(/\.\d+Z$/, "Z");
  const last = new Date(Date.now() - 10 * 24 * 3600_000).toISOString().replace(/\.\d+Z$/, "Z");
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name, namespace: objNS === "" ? ns : objNS },
    involvedObject: { apiVersion, kind, name: objName, ...(objNS === "" ? {} : { namespace: objNS }) },
    reason,
    message,
    type,
    count,
    firstTimestamp: first,
    lastTimestamp: last,
    source: { component: "e2e-kubectl" },
    reportingComponent: "e2e-kubectl",
  };
}

export const events: Obj[] = [
  event("web-v4.1", "Service", "web-v4", ns, "Normal", "Created", "Service created by the kubectl e2e test", 1),
  event(
    "web-v4.2",
    "Service",
    "web-v4",
    ns,
    "Warning",
    "FailedToUpdateEndpointSlices",
    "Error updating Endpoint Slices for Service default/web-v4: test",
    3,
  ),
  event("lb.1", "Service", "lb", ns, "Normal", "EnsuringLoadBalancer", "Ensuring load balancer", 2),
  event("cidr-v4.1", "ServiceCIDR", "cidr-v4", "", "Normal", "Ready", "ServiceCIDR is ready", 1, "networking.k8s.io/v1"),
];

const cidr = (name: string, cidrs: string[], finalizers?: string[]): Obj => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "ServiceCIDR",
  metadata: { name, labels: { "e2e.servicenet.io/suite": "kubectl" }, ...(finalizers ? { finalizers } : {}) },
  spec: { cidrs },
});

export const serviceCIDRs: Obj[] = [
  cidr("cidr-v4", ["10.200.0.0/24"]),
  cidr("cidr-dual", ["10.201.0.0/24", "fd00:201::/112"]),
  cidr("cidr-deleting", ["10.202.0.0/24"], [holdFinalizer]),
];

const ipAddress = (ip: string, svc: string): Obj => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "IPAddress",
  metadata: { name: ip, labels: { "ipaddress.kubernetes.io/ip-family": ip.includes(":") ? "IPv6" : "IPv4" } },
  spec: { parentRef: { group: "", resource: "services", namespace: ns, name: svc } },
});

/** Hand-made IPAddresses, inside cidr-v4/cidr-dual (no Service is allocated from there at a fixed address). */
export const ipAddresses: Obj[] = [
  ipAddress("10.200.0.77", "web-v4"),
  ipAddress("10.201.0.78", "dual-v4v6"),
  ipAddress("fd00:201::79", "dual-v4v6"),
];

/** networking.k8s.io/v1: IngressClasses, Ingresses (backends with endpoints, without, missing) and NetworkPolicies. */
const networkingV1 = "networking.k8s.io/v1";
const svcBackend = (name: string, port: Obj): Obj => ({ service: { name, port } });
export const ingressClasses: Obj[] = [
  {
    apiVersion: networkingV1,
    kind: "IngressClass",
    metadata: { name: "nginx", annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } },
    spec: {
      controller: "k8s.io/ingress-nginx",
      parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external-lb" },
    },
  },
  { apiVersion: networkingV1, kind: "IngressClass", metadata: { name: "plain" }, spec: { controller: "example.com/plain" } },
];
export const ingresses: Obj[] = [
  {
    apiVersion: networkingV1,
    kind: "Ingress",
    metadata: { name: "web", namespace: ns, labels: { app: "web" } },
    spec: {
      ingressClassName: "nginx",
      tls: [{ hosts: ["web.example.com"], secretName: "web-tls" }, { hosts: ["sni.example.com"] }],
      defaultBackend: svcBackend("no-endpoints", { number: 8080 }),
      rules: [
        {
          host: "web.example.com",
          http: {
            paths: [
              { path: "/", pathType: "Prefix", backend: svcBackend("web-v4", { name: "http" }) },
              { path: "/api", pathType: "Exact", backend: svcBackend("dual-v4v6", { number: 443 }) },
              { path: "/gone", pathType: "ImplementationSpecific", backend: svcBackend("missing", { number: 80 }) },
            ],
          },
        },
        { host: "*.wild.example.com", http: { paths: [{ path: "/", pathType: "Prefix", backend: svcBackend("web-v4", { number: 80 }) }] } },
      ],
    },
  },
  {
    apiVersion: networkingV1,
    kind: "Ingress",
    metadata: { name: "bucket", namespace: ns, annotations: { "kubernetes.io/ingress.class": "legacy" } },
    spec: { defaultBackend: { resource: { apiGroup: "k8s.example.com", kind: "StorageBucket", name: "assets" } } },
  },
  {
    apiVersion: networkingV1,
    kind: "Ingress",
    metadata: { name: "other", namespace: otherNS },
    spec: { rules: [{ http: { paths: [{ path: "/", pathType: "Prefix", backend: svcBackend("web-other", { number: 80 }) }] } }] },
  },
];
export const networkPolicies: Obj[] = [
  {
    apiVersion: networkingV1,
    kind: "NetworkPolicy",
    metadata: { name: "db", namespace: ns, labels: { app: "db" } },
    spec: {
      podSelector: { matchLabels: { role: "db" } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [
        {
          from: [
            { ipBlock: { cidr: "172.17.0.0/16", except: ["172.17.1.0/24", "172.17.2.0/24"] } },
            { namespaceSelector: { matchLabels: { project: "myproject" } }, podSelector: { matchLabels: { role: "frontend" } } },
          ],
          ports: [{ protocol: "TCP", port: 6379 }, { port: "metrics" }],
        },
        {},
      ],
      egress: [{ to: [{ ipBlock: { cidr: "fd00::/64" } }], ports: [{ protocol: "UDP", port: 32000, endPort: 32768 }] }],
    },
  },
  { apiVersion: networkingV1, kind: "NetworkPolicy", metadata: { name: "deny-all", namespace: ns }, spec: { podSelector: {} } },
  {
    apiVersion: networkingV1,
    kind: "NetworkPolicy",
    metadata: { name: "egress-only", namespace: otherNS },
    spec: { podSelector: { matchExpressions: [{ key: "tier", operator: "In", values: ["web", "api"] }] }, policyTypes: ["Egress"] },
  },
];

const collection: Record<string, (o: Obj) => string> = {
  Namespace: () => "/api/v1/namespaces",
  Service: (o) => `/api/v1/namespaces/${nsOf(o)}/services`,
  Endpoints: (o) => `/api/v1/namespaces/${nsOf(o)}/endpoints`,
  Event: (o) => `/api/v1/namespaces/${nsOf(o)}/events`,
  EndpointSlice: (o) => `/apis/discovery.k8s.io/v1/namespaces/${nsOf(o)}/endpointslices`,
  ServiceCIDR: () => "/apis/networking.k8s.io/v1/servicecidrs",
  IPAddress: () => "/apis/networking.k8s.io/v1/ipaddresses",
  IngressClass: () => "/apis/networking.k8s.io/v1/ingressclasses",
  Ingress: (o) => `/apis/networking.k8s.io/v1/namespaces/${nsOf(o)}/ingresses`,
  NetworkPolicy: (o) => `/apis/networking.k8s.io/v1/namespaces/${nsOf(o)}/networkpolicies`,
};

function nsOf(o: Obj): string {
  const n = (o.metadata as Obj).namespace;
  return typeof n === "string" ? n : ns;
}

/** The REST path of `o` itself. */
export function pathOf(o: Obj): string {
  const c = collection[String(o.kind)];
  if (c === undefined) throw new Error(`no path for ${String(o.kind)}`);
  return `${c(o)}/${encodeURIComponent(String((o.metadata as Obj).name))}`;
}

/** Creates everything, sets the LoadBalancer status, and puts `cidr-deleting` into deletion. */
export async function createFixtures(rest: Rest): Promise<void> {
  await rest.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: otherNS } });
  for (const o of [
    ...serviceCIDRs,
    ...ipAddresses,
    ...services,
    ...endpoints,
    ...endpointSlices,
    ...ingressClasses,
    ...ingresses,
    ...networkPolicies,
  ]) {
    const c = collection[String(o.kind)];
    if (c === undefined) throw new Error(`no collection for ${String(o.kind)}`);
    await rest.call("POST", c(o), o);
  }
  // kubectl's event search also selects on involvedObject.uid, so events carry the object's uid.
  for (const e of events) {
    const ref = e.involvedObject as Obj;
    const target = { kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } };
    const obj = await rest.call<{ metadata: { uid: string } }>("GET", pathOf(target));
    await rest.call("POST", collection.Event?.(e) ?? "", { ...e, involvedObject: { ...ref, uid: obj.metadata.uid } });
  }
  const lb = await rest.call<Obj>("GET", pathOf(services.find((s) => (s.metadata as Obj).name === "lb") as Obj));
  await rest.call("PUT", `${pathOf(lb)}/status`, { ...lb, status: { loadBalancer: { ingress: lbIngress } } });
  await rest.call("DELETE", pathOf(serviceCIDRs[2] as Obj));
}

/** Lets `cidr-deleting` go: drops every finalizer (ours and the apiserver's own, which no controller removes here). */
export async function releaseDeleting(rest: Rest): Promise<void> {
  await rest.call("PATCH", pathOf(serviceCIDRs[2] as Obj), { metadata: { finalizers: null } }).catch(() => undefined);
}
