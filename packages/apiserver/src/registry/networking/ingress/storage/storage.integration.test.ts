/**
 * networking.k8s.io/v1 Ingresses, IngressClasses and NetworkPolicies over HTTP as kube-apiserver
 * 1.33 answers: the strategies (pkg/registry/networking/{ingress,ingressclass,networkpolicy}/
 * strategy.go: generation, status kept on update and reset on create, the status subresource),
 * defaulting, ValidateIngressCreate's and ValidateNetworkPolicy's 422s, and the DefaultIngressClass
 * admission plugin.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const ingresses = "/apis/networking.k8s.io/v1/namespaces/default/ingresses";
const classes = "/apis/networking.k8s.io/v1/ingressclasses";
const policies = "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies";
type Status = { code: number; reason: string; message: string };
type Obj = { metadata: { generation?: number; resourceVersion?: string }; spec: Record<string, unknown>; status?: unknown };

const backend = { service: { name: "web", port: { number: 80 } } };
const ingress = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "Ingress",
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec,
});

describe("Ingresses, IngressClasses and NetworkPolicies", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("discovery lists the three resources with upstream's short names, scope and status subresource", async () => {
    const r = (await s.send("GET", "/apis/networking.k8s.io/v1")).json() as {
      resources: { name: string; namespaced: boolean; shortNames?: string[]; kind: string }[];
    };
    const by = new Map(r.resources.map((x) => [x.name, x]));
    expect(by.get("ingresses")).toMatchObject({ namespaced: true, shortNames: ["ing"], kind: "Ingress" });
    expect(by.get("ingresses/status")).toMatchObject({ kind: "Ingress" });
    expect(by.get("ingressclasses")).toMatchObject({ namespaced: false, kind: "IngressClass" });
    expect(by.get("networkpolicies")).toMatchObject({ namespaced: true, shortNames: ["netpol"], kind: "NetworkPolicy" });
    expect(by.has("networkpolicies/status")).toBe(false);
  });

  it("creates an Ingress without its status at generation 1, keeps the status on update and bumps generation on spec changes", async () => {
    const c = await s.send("POST", ingresses, {
      ...ingress("web", {
        ingressClassName: "nginx",
        rules: [{ host: "foo.com", http: { paths: [{ path: "/", pathType: "Prefix", backend }] } }],
      }),
      status: { loadBalancer: { ingress: [{ ip: "1.2.3.4" }] } },
    });
    expect(c.status).toBe(201);
    const created = c.json() as Obj;
    expect(created.metadata.generation).toBe(1);
    expect(created.status).toEqual({ loadBalancer: {} });

    const st = await s.send("PUT", `${ingresses}/web/status`, {
      ...created,
      spec: { ...created.spec, ingressClassName: "ignored" },
      status: { loadBalancer: { ingress: [{ ip: "10.0.0.7", hostname: "lb.example.com" }] } },
    });
    expect(st.status).toBe(200);
    const withStatus = st.json() as Obj;
    expect(withStatus.spec["ingressClassName"]).toBe("nginx");
    expect(withStatus.metadata.generation).toBe(1);

    const upd = await s.send("PUT", `${ingresses}/web`, {
      ...withStatus,
      spec: { ...withStatus.spec, defaultBackend: backend },
      status: {},
    });
    const updated = upd.json() as Obj;
    expect(updated.metadata.generation).toBe(2);
    expect(updated.status).toEqual({ loadBalancer: { ingress: [{ ip: "10.0.0.7", hostname: "lb.example.com" }] } });

    const bad = await s.send("PUT", `${ingresses}/web/status`, {
      ...updated,
      status: { loadBalancer: { ingress: [{ hostname: "1.2.3.4" }] } },
    });
    expect(bad.status).toBe(422);
    expect((bad.json() as Status).message).toBe(
      'Ingress.networking.k8s.io "web" is invalid: status.loadBalancer.ingress[0].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
    );
  });

  it("answers ValidateIngressCreate's errors as 422", async () => {
    const r = await s.send("POST", ingresses, ingress("bad", { rules: [{ host: "foo.com", http: { paths: [{ path: "/a", backend }] } }] }));
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(
      'Ingress.networking.k8s.io "bad" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
    );
    const both = await s.send(
      "POST",
      ingresses,
      ingress("both", { ingressClassName: "a", defaultBackend: backend }, { "kubernetes.io/ingress.class": "b" }),
    );
    expect((both.json() as Status).message).toBe(
      'Ingress.networking.k8s.io "both" is invalid: annotations.kubernetes.io/ingress.class: Invalid value: "b": must match `ingressClassName` when both are specified',
    );
  });

  it("IngressClass: defaults the parameters' scope, keeps the controller immutable", async () => {
    const c = await s.send("POST", classes, {
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "nginx" },
      spec: {
        controller: "k8s.io/ingress-nginx",
        parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external-lb" },
      },
    });
    expect(c.status).toBe(201);
    const created = c.json() as Obj;
    expect(created.spec["parameters"]).toMatchObject({ scope: "Cluster" });
    expect(created.metadata.generation).toBe(1);
    const u = await s.send("PUT", `${classes}/nginx`, { ...created, spec: { ...created.spec, controller: "example.com/other" } });
    expect(u.status).toBe(422);
    expect((u.json() as Status).message).toBe(
      'IngressClass.networking.k8s.io "nginx" is invalid: spec.controller: Invalid value: "example.com/other": field is immutable',
    );
  });

  it("DefaultIngressClass sets the default class on a new Ingress without one", async () => {
    const c = await s.send("POST", classes, {
      apiVersion: "networking.k8s.io/v1",
      kind: "IngressClass",
      metadata: { name: "default-one", annotations: { "ingressclass.kubernetes.io/is-default-class": "true" } },
      spec: { controller: "example.com/default" },
    });
    expect(c.status).toBe(201);
    await eventually(async () => {
      const r = await s.send("POST", `${ingresses}?dryRun=All`, ingress("defaulted", { defaultBackend: backend }));
      expect((r.json() as Obj).spec["ingressClassName"]).toBe("default-one");
      return true;
    });
    const annotated = await s.send(
      "POST",
      ingresses,
      ingress("annotated", { defaultBackend: backend }, { "kubernetes.io/ingress.class": "x" }),
    );
    expect((annotated.json() as Obj).spec["ingressClassName"]).toBeUndefined();
  });

  it("NetworkPolicy: defaults policyTypes and port protocols, validates ipBlocks, and bumps generation", async () => {
    const c = await s.send("POST", policies, {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "db" },
      spec: { podSelector: { matchLabels: { role: "db" } }, egress: [{ ports: [{ port: 5978 }] }] },
    });
    expect(c.status).toBe(201);
    const created = c.json() as Obj;
    expect(created.spec["policyTypes"]).toEqual(["Ingress", "Egress"]);
    expect(created.spec["egress"]).toEqual([{ ports: [{ protocol: "TCP", port: 5978 }] }]);
    expect(created.metadata.generation).toBe(1);
    expect(created.status).toBeUndefined();
    const u = await s.send("PUT", `${policies}/db`, { ...created, spec: { ...created.spec, podSelector: {} } });
    expect((u.json() as Obj).metadata.generation).toBe(2);

    const bad = await s.send("POST", policies, {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "bad" },
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "10.0.0.0/16", except: ["10.1.0.0/24"] } }] }] },
    });
    expect(bad.status).toBe(422);
    expect((bad.json() as Status).message).toBe(
      'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
    );
  });
});
