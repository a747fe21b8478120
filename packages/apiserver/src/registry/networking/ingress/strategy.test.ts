/**
 * pkg/registry/networking/ingress/strategy_test.go TestIngressStrategy and TestIngressStatusStrategy,
 * and the ingressclass and networkpolicy strategies' generation rules (strategy_test.go of each).
 */
import { describe, expect, it } from "vitest";
import { ingressClassStrategy } from "../ingressclass/strategy.ts";
import { networkPolicyStrategy } from "../networkpolicy/strategy.ts";
import { ingressStrategy } from "./strategy.ts";

type IngressObject = Parameters<typeof ingressStrategy.prepareForCreate>[0];
type IngressClassObject = Parameters<typeof ingressClassStrategy.prepareForCreate>[0];
type NetworkPolicyObject = Parameters<typeof networkPolicyStrategy.prepareForCreate>[0];

const backend = { service: { name: "default-backend", port: { number: 80 } } };
const newIngress = (): IngressObject => ({
  metadata: { name: "foo", namespace: "default", resourceVersion: "1", generation: 1 },
  spec: { defaultBackend: backend, rules: [{ host: "foo.bar.com", http: { paths: [{ path: "/foo", pathType: "Exact", backend }] } }] },
  status: { loadBalancer: { ingress: [{ ip: "127.0.0.1" }] } },
});

describe("ingress strategy (TestIngressStrategy)", () => {
  it("is namespaced, never creates on update, clears status and starts at generation 1", () => {
    expect(ingressStrategy.namespaced).toBe(true);
    expect(ingressStrategy.allowCreateOnUpdate).toBe(false);
    const ing = newIngress();
    ingressStrategy.prepareForCreate(ing);
    expect(ing["status"]).toEqual({});
    expect(ing.metadata.generation).toBe(1);
    expect(ingressStrategy.validate(ing)).toEqual([]);
  });

  it("keeps the stored status on update and bumps the generation only on a spec change", () => {
    const old = newIngress();
    const same = newIngress();
    same["status"] = {};
    ingressStrategy.prepareForUpdate(same, old);
    expect(same["status"]).toEqual(old["status"]);
    expect(same.metadata.generation).toBe(1);
    const changed = newIngress();
    (changed["spec"] as { ingressClassName?: string }).ingressClassName = "nginx";
    ingressStrategy.prepareForUpdate(changed, old);
    expect(changed.metadata.generation).toBe(2);
  });

  it("rejects an invalid Ingress", () => {
    const bad = newIngress();
    bad["spec"] = {};
    expect(ingressStrategy.validate(bad).map((e) => e.field)).toEqual(["spec"]);
  });
});

describe("ingress status strategy (TestIngressStatusStrategy)", () => {
  it("keeps the stored spec and validates the new status", () => {
    const status = ingressStrategy.subresources?.["status"];
    expect(status).toBeDefined();
    const old = newIngress();
    const upd = newIngress();
    (upd["spec"] as { defaultBackend?: unknown }).defaultBackend = { service: { name: "other", port: { number: 81 } } };
    upd["status"] = { loadBalancer: { ingress: [{ ip: "127.0.0.2" }] } };
    upd.metadata.labels = { a: "b" };
    status!.prepareForUpdate(upd, old);
    expect(upd["spec"]).toEqual(old["spec"]);
    expect(upd["status"]).toEqual({ loadBalancer: { ingress: [{ ip: "127.0.0.2" }] } });
    // Only the spec is reset: upstream's ingressStatusStrategy leaves metadata alone.
    expect(upd.metadata.labels).toEqual({ a: "b" });
    expect(status!.validateUpdate(upd, old)).toEqual([]);
    upd["status"] = { loadBalancer: { ingress: [{ ip: "999.0.0.1" }] } };
    expect(status!.validateUpdate(upd, old).map((e) => e.field)).toEqual(["status.loadBalancer.ingress[0].ip"]);
  });
});

describe("ingressclass and networkpolicy strategies", () => {
  it("IngressClass: cluster-scoped, generation 1 then +1 on a spec change, defaulted scope", () => {
    expect(ingressClassStrategy.namespaced).toBe(false);
    const ic = {
      metadata: { name: "c" },
      spec: { controller: "example.com/c", parameters: { kind: "k", name: "n" } },
    } as unknown as IngressClassObject;
    ingressClassStrategy.defaults?.(ic);
    expect((ic["spec"] as { parameters: { scope?: string } }).parameters.scope).toBe("Cluster");
    ingressClassStrategy.prepareForCreate(ic);
    expect(ic.metadata.generation).toBe(1);
    const upd = structuredClone(ic);
    (upd["spec"] as { parameters: { name: string } }).parameters.name = "m";
    ingressClassStrategy.prepareForUpdate(upd, ic);
    expect(upd.metadata.generation).toBe(2);
  });

  it("NetworkPolicy: generation 1 then +1 on a spec change, no status", () => {
    expect(networkPolicyStrategy.subresources).toBeUndefined();
    const np = { metadata: { name: "p", namespace: "default" }, spec: { podSelector: {} } } as unknown as NetworkPolicyObject;
    networkPolicyStrategy.prepareForCreate(np);
    expect(np.metadata.generation).toBe(1);
    const same = structuredClone(np);
    networkPolicyStrategy.prepareForUpdate(same, np);
    expect(same.metadata.generation).toBe(1);
    const upd = structuredClone(np);
    upd["spec"] = { podSelector: { matchLabels: { a: "b" } } };
    networkPolicyStrategy.prepareForUpdate(upd, np);
    expect(upd.metadata.generation).toBe(2);
  });
});
