import { describe, expect, it } from "vitest";
import {
  makeService,
  setClusterIPs,
  setExternalTrafficPolicy,
  setIPFamilies,
  setIPFamilyPolicy,
  setNodePorts,
  setTypeExternalName,
  setTypeLoadBalancer,
  setTypeNodePort,
} from "./storage/testing.ts";
import { dropTypeDependentFields, trimFieldsForDualStackDowngrade } from "./strategy-fields.ts";

const dual = [setClusterIPs("10.0.0.1", "2000::1"), setIPFamilies("IPv4", "IPv6"), setIPFamilyPolicy("RequireDualStack")];

describe("dropTypeDependentFields", () => {
  it("-> ExternalName wipes unchanged IP fields", () => {
    const old = makeService("foo", ...dual);
    const svc = makeService("foo", ...dual, setTypeExternalName);
    dropTypeDependentFields(svc, old);
    // Absent rather than "": Go's omitempty leaves an empty clusterIP out of the JSON.
    expect(Object.keys(svc.spec)).not.toContain("clusterIP");
    expect([svc.spec.clusterIPs, svc.spec.ipFamilies, svc.spec.ipFamilyPolicy]).toEqual([undefined, undefined, undefined]);
  });

  it("-> ExternalName keeps fields the user changed, for validation to reject", () => {
    const old = makeService("foo", ...dual);
    const svc = makeService("foo", setClusterIPs("10.0.0.9"), setIPFamilies("IPv4"), setIPFamilyPolicy("SingleStack"), setTypeExternalName);
    dropTypeDependentFields(svc, old);
    expect(svc.spec.clusterIPs).toEqual(["10.0.0.9"]);
    expect(svc.spec.ipFamilies).toEqual(["IPv4"]);
    expect(svc.spec.ipFamilyPolicy).toBe("SingleStack");
  });

  it("NodePort -> ClusterIP wipes unchanged nodePorts, but not new ones", () => {
    const old = makeService("foo", setTypeNodePort, setNodePorts(30001));
    const same = makeService("foo", setNodePorts(30001));
    dropTypeDependentFields(same, old);
    expect(same.spec.ports![0]!.nodePort).toBeUndefined();
    const changed = makeService("foo", setNodePorts(30002));
    dropTypeDependentFields(changed, old);
    expect(changed.spec.ports![0]!.nodePort).toBe(30002);
  });

  it("Local -> Cluster LoadBalancer wipes an unchanged healthCheckNodePort", () => {
    const old = makeService("foo", setTypeLoadBalancer, setExternalTrafficPolicy("Local"));
    old.spec.healthCheckNodePort = 30300;
    const svc = makeService("foo", setTypeLoadBalancer, setExternalTrafficPolicy("Cluster"));
    svc.spec.healthCheckNodePort = 30300;
    dropTypeDependentFields(svc, old);
    expect(svc.spec.healthCheckNodePort).toBeUndefined();
  });

  it.each([
    ["NodePort", "ClusterIP", true],
    ["LoadBalancer", "ClusterIP", true],
    ["NodePort", "LoadBalancer", false],
  ])("%s -> %s drops an unchanged externalTrafficPolicy: %s", (from, to, dropped) => {
    const old = makeService("foo", setExternalTrafficPolicy("Cluster"));
    old.spec.type = from;
    const svc = makeService("foo", setExternalTrafficPolicy("Cluster"));
    svc.spec.type = to;
    dropTypeDependentFields(svc, old);
    expect(svc.spec.externalTrafficPolicy).toBe(dropped ? undefined : "Cluster");
  });

  it("NodePort -> ClusterIP keeps a changed externalTrafficPolicy, for validation to reject", () => {
    const old = makeService("foo", setTypeNodePort, setExternalTrafficPolicy("Cluster"));
    const svc = makeService("foo", setExternalTrafficPolicy("Local"));
    dropTypeDependentFields(svc, old);
    expect(svc.spec.externalTrafficPolicy).toBe("Local");
  });

  it("LoadBalancer -> NodePort drops unchanged allocateLoadBalancerNodePorts and loadBalancerClass", () => {
    const old = makeService("foo", setTypeLoadBalancer);
    Object.assign(old.spec, { allocateLoadBalancerNodePorts: true, loadBalancerClass: "example.com/lb" });
    const svc = makeService("foo", setTypeNodePort);
    Object.assign(svc.spec, { allocateLoadBalancerNodePorts: true, loadBalancerClass: "example.com/lb" });
    dropTypeDependentFields(svc, old);
    expect([svc.spec.allocateLoadBalancerNodePorts, svc.spec.loadBalancerClass]).toEqual([undefined, undefined]);
    const changed = makeService("foo", setTypeNodePort);
    Object.assign(changed.spec, { allocateLoadBalancerNodePorts: false, loadBalancerClass: "other.com/lb" });
    dropTypeDependentFields(changed, old);
    expect([changed.spec.allocateLoadBalancerNodePorts, changed.spec.loadBalancerClass]).toEqual([false, "other.com/lb"]);
  });

  it("does nothing on create", () => {
    const svc = makeService("foo", setTypeExternalName, ...dual);
    dropTypeDependentFields(svc, null);
    expect(svc.spec.clusterIPs).toEqual(["10.0.0.1", "2000::1"]);
  });
});

describe("trimFieldsForDualStackDowngrade", () => {
  it.each([
    ["RequireDualStack", "SingleStack", 1],
    ["PreferDualStack", "SingleStack", 1],
    ["RequireDualStack", "PreferDualStack", 2],
    ["SingleStack", "SingleStack", 2],
  ])("%s -> %s keeps %i", (from, to, n) => {
    const old = makeService("foo", ...dual, setIPFamilyPolicy(from));
    const svc = makeService("foo", ...dual, setIPFamilyPolicy(to));
    trimFieldsForDualStackDowngrade(svc, old);
    expect(svc.spec.clusterIPs!.length).toBe(n);
    expect(svc.spec.ipFamilies!.length).toBe(n);
  });
});
