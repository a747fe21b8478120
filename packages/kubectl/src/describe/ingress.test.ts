/**
 * Goldens from real kubectl 1.33 (`describe ingress|ingressclass|networkpolicy` against a
 * servicenet apiserver serving these objects): our describers print the same bytes.
 */
import { describe, expect, it } from "vitest";
import type { EndpointSlice, Ingress, IngressClass, NetworkPolicy, Service } from "@servicenet/api";
import { utc } from "../util/zoneinfo.ts";
import { describeIngress, describeIngressClass, describeNetworkPolicy, ingressBackendServices, type BackendService } from "./ingress.ts";

const backend = (name: string, port: { number?: number; name?: string }) => ({ service: { name, port } });
const notFound = (name: string): BackendService => ({ error: `services "${name}" not found` });
const svc2: Service = {
  metadata: { name: "svc2", namespace: "default" },
  spec: { ports: [{ port: 80, protocol: "TCP", targetPort: 8080 }] },
};

describe("describe ingress (describeIngressV1)", () => {
  it("web: class, TLS, a rule whose Service is missing", () => {
    const ing: Ingress = {
      metadata: { name: "web", namespace: "default" },
      spec: {
        ingressClassName: "nginx",
        tls: [{ hosts: ["foo.com"], secretName: "my-cert" }],
        rules: [{ host: "foo.com", http: { paths: [{ path: "/bar", pathType: "Exact", backend: backend("svc1", { number: 8080 }) }] } }],
      },
      status: { loadBalancer: {} },
    };
    expect(ingressBackendServices(ing)).toEqual(["svc1"]);
    expect(describeIngress(ing, new Map([["svc1", notFound("svc1")]]), [])).toBe(
      [
        "Name:             web",
        "Labels:           <none>",
        "Namespace:        default",
        "Address:          ",
        "Ingress Class:    nginx",
        "Default backend:  <default>",
        "TLS:",
        "  my-cert terminates foo.com",
        "Rules:",
        "  Host        Path  Backends",
        "  ----        ----  --------",
        "  foo.com     ",
        '              /bar   svc1:8080 (<error: services "svc1" not found>)',
        "Annotations:  <none>",
        "Events:       <none>",
        "",
      ].join("\n"),
    );
  });

  it("multi: a default backend, a Service without endpoints, a named port, an annotation", () => {
    const ing: Ingress = {
      metadata: { name: "multi", namespace: "default", annotations: { team: "net" } },
      spec: {
        defaultBackend: backend("svc2", { number: 80 }),
        rules: [
          { host: "a.com", http: { paths: [{ path: "/", pathType: "Prefix", backend: backend("svc2", { number: 80 }) }] } },
          { host: "b.com", http: { paths: [{ path: "/x", pathType: "Exact", backend: backend("svc1", { name: "http" }) }] } },
        ],
      },
    };
    const services = new Map<string, BackendService>([
      ["svc2", { service: svc2, slices: [] as EndpointSlice[] }],
      ["svc1", notFound("svc1")],
    ]);
    expect(describeIngress(ing, services, [])).toBe(
      [
        "Name:             multi",
        "Labels:           <none>",
        "Namespace:        default",
        "Address:          ",
        "Ingress Class:    <none>",
        "Default backend:  svc2:80 (<none>)",
        "Rules:",
        "  Host        Path  Backends",
        "  ----        ----  --------",
        "  a.com       ",
        "              /   svc2:80 (<none>)",
        "  b.com       ",
        '              /x   svc1:http (<error: services "svc1" not found>)',
        "Annotations:  team: net",
        "Events:       <none>",
        "",
      ].join("\n"),
    );
  });

  it("no HTTP rules: the catch-all row with the default backend; a resource backend; the address; SNI routes", () => {
    const ing: Ingress = {
      metadata: { name: "res", namespace: "default" },
      spec: {
        defaultBackend: { resource: { apiGroup: "k8s.example.com", kind: "StorageBucket", name: "static-assets" } },
        tls: [{ hosts: ["a.com", "b.com"] }],
      },
      status: { loadBalancer: { ingress: [{ hostname: "lb.example.com" }, { ip: "10.0.0.1" }] } },
    };
    const out = describeIngress(ing, new Map());
    expect(out).toContain("Address:          10.0.0.1,lb.example.com\n");
    expect(out).toContain("Default backend:  APIGroup: k8s.example.com, Kind: StorageBucket, Name: static-assets\n");
    expect(out).toContain("TLS:\n  SNI routes a.com,b.com\n");
    expect(out).toContain("  *           *     APIGroup: k8s.example.com, Kind: StorageBucket, Name: static-assets\n");
  });
});

describe("describe ingressclass (describeIngressClassV1)", () => {
  it("nginx with parameters", () => {
    const ic: IngressClass = {
      metadata: { name: "nginx", annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } },
      spec: {
        controller: "k8s.io/ingress-nginx",
        parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external-lb", scope: "Cluster" },
      },
    };
    expect(describeIngressClass(ic, [])).toBe(
      "Name:         nginx\nLabels:       <none>\nAnnotations:  ingressclass.kubernetes.io/is-default-class: true\nController:   k8s.io/ingress-nginx\n" +
        "Parameters:\n  APIGroup:  k8s.example.com\n  Kind:      IngressParameters\n  Name:      external-lb\nEvents:      <none>\n",
    );
  });
});

describe("describe networkpolicy (describeNetworkPolicy)", () => {
  const created = "2026-12-06T15:47:33Z";
  it("db: ipBlock, namespace and pod selectors, a port range", () => {
    const np: NetworkPolicy = {
      metadata: { name: "db", namespace: "default", creationTimestamp: created, labels: { app: "db" } },
      spec: {
        podSelector: { matchLabels: { role: "db" } },
        policyTypes: ["Ingress", "Egress"],
        ingress: [
          {
            from: [
              { ipBlock: { cidr: "172.17.0.0/16", except: ["172.17.1.0/24"] } },
              { namespaceSelector: { matchLabels: { project: "myproject" } } },
              { podSelector: { matchLabels: { role: "frontend" } } },
            ],
            ports: [{ protocol: "TCP", port: 6379 }],
          },
        ],
        egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/24" } }], ports: [{ protocol: "TCP", port: 32000, endPort: 32768 }] }],
      },
    };
    expect(describeNetworkPolicy(np, { location: utc })).toBe(
      [
        "Name:         db",
        "Namespace:    default",
        "Created on:   2026-12-06 15:47:33 +0000 UTC",
        "Labels:       app=db",
        "Annotations:  <none>",
        "Spec:",
        "  PodSelector:     role=db",
        "  Allowing ingress traffic:",
        "    To Port: 6379/TCP",
        "    From:",
        "      IPBlock:",
        "        CIDR: 172.17.0.0/16",
        "        Except: 172.17.1.0/24",
        "    From:",
        "      NamespaceSelector: project=myproject",
        "    From:",
        "      PodSelector: role=frontend",
        "  Allowing egress traffic:",
        "    To Port Range: 32000-32768/TCP",
        "    To:",
        "      IPBlock:",
        "        CIDR: 10.0.0.0/24",
        "        Except: ",
        "  Policy Types: Ingress, Egress",
        "",
      ].join("\n"),
    );
  });

  it("deny-all: an empty selector, no rules", () => {
    const np: NetworkPolicy = {
      metadata: { name: "deny-all", namespace: "default", creationTimestamp: created },
      spec: { podSelector: {}, policyTypes: ["Ingress"] },
    };
    expect(describeNetworkPolicy(np, { location: utc })).toBe(
      [
        "Name:         deny-all",
        "Namespace:    default",
        "Created on:   2026-12-06 15:47:33 +0000 UTC",
        "Labels:       <none>",
        "Annotations:  <none>",
        "Spec:",
        "  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)",
        "  Allowing ingress traffic:",
        "    <none> (Selected pods are isolated for ingress connectivity)",
        "  Not affecting egress traffic",
        "  Policy Types: Ingress",
        "",
      ].join("\n"),
    );
  });

  it("rules without ports or peers, several rules, and no policy types", () => {
    const np: NetworkPolicy = {
      metadata: { name: "x", namespace: "default", creationTimestamp: created },
      spec: { podSelector: { matchLabels: { a: "b" } }, policyTypes: ["Egress"], egress: [{}, { ports: [{ port: "dns" }] }] },
    };
    expect(describeNetworkPolicy(np, { location: utc })).toContain(
      [
        "  Not affecting ingress traffic",
        "  Allowing egress traffic:",
        "    To Port: <any> (traffic allowed to all ports)",
        "    To: <any> (traffic not restricted by destination)",
        "    ----------",
        "    To Port: dns/TCP",
        "    To: <any> (traffic not restricted by destination)",
        "  Policy Types: Egress",
      ].join("\n"),
    );
  });
});
