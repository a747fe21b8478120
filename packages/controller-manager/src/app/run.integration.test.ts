/**
 * runControllerManager wired end to end (informers, three controllers,
 * clients) against the in-test fake apiserver over HTTP.
 */
import { KubeConfig } from "@kubernetes/client-node";
import type { EndpointSlice, Endpoints, ServiceCIDR } from "@servicenet/api";
import { FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { dualStackPods, makeService } from "../testing/fixtures.ts";
import { runControllerManager } from "./run.ts";

let server: FakeAPIServer | undefined;
const stop = new AbortController();
afterEach(async () => {
  stop.abort();
  await server?.stop();
});

describe("runControllerManager over HTTP", () => {
  it("writes Endpoints, one EndpointSlice per family, and the ServiceCIDR finalizer and Ready condition", async () => {
    server = new FakeAPIServer();
    server.tracker.add([makeService()]);
    server.tracker.add(dualStackPods(3), "pods");
    server.tracker.add([{ metadata: { name: "node-a" } }], "nodes");
    server.tracker.add([{ metadata: { name: "kubernetes" }, spec: { cidrs: ["10.96.0.0/16", "fd00:10:96::/112"] } }], "servicecidrs");
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    const done = runControllerManager(
      { kubeConfig: kc, controllers: ["endpoint", "endpointslice", "servicecidr"], workers: 2 },
      stop.signal,
    );

    const ep = await server.waitForAction((w) => w.method === "POST" && w.path.endsWith("/endpoints"));
    expect((ep.body as Endpoints).subsets?.[0]?.addresses).toHaveLength(3);
    await server.waitForAction((w) => w.method === "PATCH" && w.path.endsWith("/servicecidrs/kubernetes/status"));
    const slices = server.writes.filter(
      (w) => w.method === "POST" && w.path === "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
    );
    expect(slices.map((w) => (w.body as EndpointSlice).addressType).sort()).toEqual(["IPv4", "IPv6"]);
    // Upstream's patches: a strategic-merge patch adding the finalizer, then the Ready condition (no resourceVersion in either).
    const fin = server.writes.find((w) => w.method === "PATCH" && w.path.endsWith("/servicecidrs/kubernetes"));
    expect(fin?.body).toEqual({ metadata: { finalizers: ["networking.k8s.io/service-cidr-finalizer"] } });
    const status = server.writes.find((w) => w.path.endsWith("/status"));
    expect(status?.method).toBe("PATCH");
    expect((status?.body as ServiceCIDR).metadata).toBeUndefined();
    expect((status?.body as ServiceCIDR).status?.conditions).toEqual([
      expect.objectContaining({ type: "Ready", status: "True", reason: "", message: "Kubernetes Service CIDR is ready" }),
    ]);
    // Every request carries its controller's client-go User-Agent (ConfigOrDie's AddUserAgent): a
    // real apiserver records the writes under its first segment, kube-controller-manager, never node-fetch.
    const agent = (name: string) =>
      new RegExp(`^kube-controller-manager/v1\\.33\\.0\\+servicenet \\(.+\\) kubernetes/[0-9a-f]{7}/${name}$`);
    expect(fin?.userAgent).toMatch(agent("service-cidrs-controller"));
    expect(ep.userAgent).toMatch(agent("endpoint-controller"));
    expect(slices[0]?.userAgent).toMatch(agent("endpointslice-controller"));
    for (const a of server.actions) expect(a.userAgent).toMatch(agent("[a-z-]+"));

    stop.abort();
    expect(await done).toBe("stopped");
  });

  it("nodeipam: patches each Node's podCIDRs in --cluster-cidr order, and a Node outside the range stops the start", async () => {
    server = new FakeAPIServer();
    server.tracker.add(
      [
        { metadata: { name: "node-a" } },
        { metadata: { name: "node-b" }, spec: { podCIDR: "10.244.0.0/24", podCIDRs: ["10.244.0.0/24", "fd00:10:244::/64"] } },
      ],
      "nodes",
    );
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    const nodeIpam = {
      allocateNodeCIDRs: true,
      clusterCIDR: "10.244.0.0/16,fd00:10:244::/56",
      serviceCIDR: "",
      nodeCIDRMaskSize: 0,
      nodeCIDRMaskSizeIPv4: 0,
      nodeCIDRMaskSizeIPv6: 0,
    };
    const ipamStop = new AbortController();
    const done = runControllerManager({ kubeConfig: kc, controllers: ["nodeipam"], nodeIpam }, ipamStop.signal);
    const patch = await server.waitForAction((w) => w.method === "PATCH" && w.path === "/api/v1/nodes/node-a");
    // node-b's blocks were occupied first, so node-a gets the next ones.
    expect(patch.body).toEqual({ spec: { podCIDR: "10.244.1.0/24", podCIDRs: ["10.244.1.0/24", "fd00:10:244:1::/64"] } });
    expect(patch.userAgent).toMatch(/^kube-controller-manager\/.+\/node-controller$/);
    ipamStop.abort();
    expect(await done).toBe("stopped");

    const bad = runControllerManager(
      { kubeConfig: kc, controllers: ["nodeipam"], nodeIpam: { ...nodeIpam, clusterCIDR: "10.0.0.0/16,fd00::/56" } },
      new AbortController().signal,
    );
    await expect(bad).rejects.toThrow(
      /^error starting controller "nodeipam": failed to mark cidr\[10\.244\.[01]\.0\/24\] at idx \[0\] as occupied for node: node-[ab]: cidr 10\.244\.[01]\.0\/24 is out the range of cluster cidr 10\.0\.0\.0\/16$/,
    );
  });
});
