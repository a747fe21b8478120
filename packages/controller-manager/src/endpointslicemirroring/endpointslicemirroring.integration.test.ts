/**
 * The mirroring controller inside runControllerManager, over HTTP against the fake apiserver:
 * a selectorless Service's Endpoints become a mirrored EndpointSlice.
 */
import { KubeConfig } from "@kubernetes/client-node";
import type { EndpointSlice } from "@servicenet/api";
import { FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { runControllerManager } from "../app/run.ts";

let server: FakeAPIServer | undefined;
const stop = new AbortController();
afterEach(async () => {
  stop.abort();
  await server?.stop();
});

describe("endpointslicemirroring in runControllerManager", () => {
  it("mirrors the Endpoints of a Service without a selector, not those of the kubernetes Service", async () => {
    server = new FakeAPIServer();
    server.tracker.add(
      [
        { metadata: { name: "ext", namespace: "default", uid: "svc-uid" }, spec: { ports: [{ port: 80, protocol: "TCP" }] } },
        { metadata: { name: "kubernetes", namespace: "default" }, spec: { ports: [{ name: "https", port: 443, protocol: "TCP" }] } },
      ],
      "services",
    );
    server.tracker.add(
      [
        {
          metadata: { name: "ext", namespace: "default", uid: "ep-uid", labels: { app: "ext" } },
          subsets: [{ addresses: [{ ip: "192.0.2.10" }], ports: [{ name: "http", port: 8080, protocol: "TCP" }] }],
        },
        {
          metadata: { name: "kubernetes", namespace: "default", labels: { "endpointslice.kubernetes.io/skip-mirror": "true" } },
          subsets: [{ addresses: [{ ip: "192.0.2.1" }], ports: [{ name: "https", port: 6443, protocol: "TCP" }] }],
        },
      ],
      "endpoints",
    );
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    const done = runControllerManager({ kubeConfig: kc, controllers: ["endpointslicemirroring"], workers: 1 }, stop.signal);
    const w = await server.waitForAction(
      (a) => a.method === "POST" && a.path === "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
    );
    const slice = w.body as EndpointSlice;
    expect(slice.metadata).toMatchObject({
      generateName: "ext-",
      labels: {
        app: "ext",
        "kubernetes.io/service-name": "ext",
        "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
      },
      ownerReferences: [{ apiVersion: "v1", kind: "Endpoints", name: "ext", uid: "ep-uid", controller: true, blockOwnerDeletion: true }],
    });
    expect(slice.endpoints).toEqual([{ addresses: ["192.0.2.10"], conditions: { ready: true } }]);
    expect(slice.ports).toEqual([{ name: "http", port: 8080, protocol: "TCP" }]);
    stop.abort();
    expect(await done).toBe("stopped");
    expect(server.writes.filter((a) => a.method === "POST").length).toBe(1);
  });
});
