import { describe, expect, it } from "vitest";
import { setDefaultsEndpoints, setDefaultsNamespace, setDefaultsPod, setDefaultsService } from "./defaults.ts";
import type { Service, ServiceSpec } from "./service.ts";

const svc = (spec: ServiceSpec, status?: Service["status"]): Service => ({ metadata: { name: "s" }, spec, ...(status ? { status } : {}) });

describe("setDefaultsService (v1 SetDefaults_Service)", () => {
  it.each<[string, ServiceSpec, ServiceSpec]>([
    ["empty spec becomes a ClusterIP service", {}, { sessionAffinity: "None", type: "ClusterIP", internalTrafficPolicy: "Cluster" }],
    [
      "ports get TCP and targetPort = port (absent, 0 and empty string)",
      {
        ports: [{ port: 80 }, { port: 81, targetPort: 0 }, { port: 82, targetPort: "" }, { port: 83, targetPort: "http", protocol: "UDP" }],
      },
      {
        ports: [
          { port: 80, protocol: "TCP", targetPort: 80 },
          { port: 81, protocol: "TCP", targetPort: 81 },
          { port: 82, protocol: "TCP", targetPort: 82 },
          { port: 83, protocol: "UDP", targetPort: "http" },
        ],
        sessionAffinity: "None",
        type: "ClusterIP",
        internalTrafficPolicy: "Cluster",
      },
    ],
    [
      "ClientIP affinity gets a 10800 s timeout",
      { sessionAffinity: "ClientIP" },
      {
        sessionAffinity: "ClientIP",
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        type: "ClusterIP",
        internalTrafficPolicy: "Cluster",
      },
    ],
    [
      "an explicit ClientIP timeout is kept",
      { sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } },
      {
        sessionAffinity: "ClientIP",
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
        type: "ClusterIP",
        internalTrafficPolicy: "Cluster",
      },
    ],
    [
      "None affinity drops a config",
      { sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } },
      { sessionAffinity: "None", type: "ClusterIP", internalTrafficPolicy: "Cluster" },
    ],
    [
      "NodePort gets externalTrafficPolicy Cluster",
      { type: "NodePort" },
      { type: "NodePort", sessionAffinity: "None", externalTrafficPolicy: "Cluster", internalTrafficPolicy: "Cluster" },
    ],
    [
      "ClusterIP with externalIPs is externally accessible",
      { externalIPs: ["192.0.2.1"] },
      {
        externalIPs: ["192.0.2.1"],
        sessionAffinity: "None",
        type: "ClusterIP",
        externalTrafficPolicy: "Cluster",
        internalTrafficPolicy: "Cluster",
      },
    ],
    [
      "LoadBalancer gets allocateLoadBalancerNodePorts and keeps an explicit Local",
      { type: "LoadBalancer", externalTrafficPolicy: "Local" },
      {
        type: "LoadBalancer",
        sessionAffinity: "None",
        externalTrafficPolicy: "Local",
        internalTrafficPolicy: "Cluster",
        allocateLoadBalancerNodePorts: true,
      },
    ],
    [
      "ExternalName gets neither traffic policy",
      { type: "ExternalName", externalName: "example.com" },
      { type: "ExternalName", externalName: "example.com", sessionAffinity: "None" },
    ],
    [
      "dual-stack fields are left alone",
      { clusterIP: "None" },
      { clusterIP: "None", sessionAffinity: "None", type: "ClusterIP", internalTrafficPolicy: "Cluster" },
    ],
  ])("%s", (_n, spec, want) => {
    const out = setDefaultsService(svc(spec));
    expect(out.spec).toEqual(want);
    expect(out.spec.ipFamilyPolicy).toBeUndefined();
    expect(out.spec.ipFamilies).toBeUndefined();
    expect(out.spec.clusterIPs).toBeUndefined();
  });

  it("defaults LoadBalancer ingress ipMode to VIP unless the gate is off", () => {
    const status = {
      loadBalancer: { ingress: [{ ip: "192.0.2.1" }, { hostname: "lb.example.com" }, { ip: "192.0.2.2", ipMode: "Proxy" }] },
    };
    const on = setDefaultsService(svc({ type: "LoadBalancer" }, structuredClone(status)));
    expect(on.status?.loadBalancer?.ingress).toEqual([
      { ip: "192.0.2.1", ipMode: "VIP" },
      { hostname: "lb.example.com" },
      { ip: "192.0.2.2", ipMode: "Proxy" },
    ]);
    const off = setDefaultsService(svc({ type: "LoadBalancer" }, structuredClone(status)), { loadBalancerIPMode: false });
    expect(off.status?.loadBalancer?.ingress?.[0]).toEqual({ ip: "192.0.2.1" });
  });
});

describe("other defaults", () => {
  it("Pod container ports get TCP; hostNetwork copies containerPort to hostPort", () => {
    const pod = setDefaultsPod({
      metadata: {},
      spec: { hostNetwork: true, containers: [{ name: "c", ports: [{ containerPort: 53, protocol: "UDP" }, { containerPort: 80 }] }] },
    });
    expect(pod.spec.containers[0]?.ports).toEqual([
      { containerPort: 53, protocol: "UDP", hostPort: 53 },
      { containerPort: 80, protocol: "TCP", hostPort: 80 },
    ]);
    const plain = setDefaultsPod({ metadata: {}, spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] } });
    expect(plain.spec.containers[0]?.ports).toEqual([{ containerPort: 80, protocol: "TCP" }]);
  });

  it("Endpoints ports get TCP", () => {
    const ep = setDefaultsEndpoints({ metadata: {}, subsets: [{ ports: [{ port: 80 }, { port: 53, protocol: "UDP" }] }] });
    expect(ep.subsets?.[0]?.ports).toEqual([
      { port: 80, protocol: "TCP" },
      { port: 53, protocol: "UDP" },
    ]);
  });

  it("Namespace gets the metadata.name label and phase Active", () => {
    expect(setDefaultsNamespace({ metadata: { name: "dev" } })).toEqual({
      metadata: { name: "dev", labels: { "kubernetes.io/metadata.name": "dev" } },
      status: { phase: "Active" },
    });
    expect(setDefaultsNamespace({ metadata: { generateName: "dev-" } }).metadata.labels).toBeUndefined();
  });
});
