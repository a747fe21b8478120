/**
 * The EndpointSlice client's requests: the paths, verbs and bodies of client-go's typed
 * EndpointSlices client (apiVersion and kind set), the controller's user agent (the field manager
 * the apiserver records), and a delete of a slice already gone is no error.
 */
import type { EndpointSlice } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import { recordingServer } from "../testing/recording-server.ts";
import { endpointSliceClient } from "./endpointslice-client.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

const slice: EndpointSlice = {
  metadata: { name: "web-abc", namespace: "ns 1", labels: { "kubernetes.io/service-name": "web" } },
  addressType: "IPv4",
  endpoints: [{ addresses: ["10.0.0.1"], conditions: { ready: true } }],
  ports: [{ name: "", port: 80, protocol: "TCP" }],
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

describe("endpointSliceClient", () => {
  it("creates, replaces and deletes through the discovery.k8s.io/v1 paths with typed bodies", async () => {
    const srv = await recordingServer((r) =>
      r.method === "DELETE"
        ? { status: 404, body: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 } }
        : { status: 200, body: { ...(r.body as object), metadata: { ...slice.metadata, resourceVersion: "7" } } },
    );
    close = srv.close;
    const c = endpointSliceClient(srv.kubeConfig);
    const created = await c.create("ns 1", slice);
    expect(created.metadata.resourceVersion).toBe("7");
    await c.update("ns 1", slice);
    await c.delete("ns 1", "web-abc");
    expect(srv.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /apis/discovery.k8s.io/v1/namespaces/ns%201/endpointslices",
      "PUT /apis/discovery.k8s.io/v1/namespaces/ns%201/endpointslices/web-abc",
      "DELETE /apis/discovery.k8s.io/v1/namespaces/ns%201/endpointslices/web-abc",
    ]);
    expect(srv.requests[1]!.body).toEqual({ ...slice, apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" });
    expect(srv.requests.map((r) => r.userAgent)).toEqual(Array(3).fill(controllerUserAgent("endpointslice-controller")));
  });

  it("rejects with the server's Status", async () => {
    const srv = await recordingServer(() => ({
      status: 409,
      body: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "Conflict", message: "the object has been modified", code: 409 },
    }));
    close = srv.close;
    await expect(endpointSliceClient(srv.kubeConfig, "x/y").update("ns", slice)).rejects.toMatchObject({
      status: { reason: "Conflict", code: 409 },
    });
    expect(srv.requests[0]!.userAgent).toBe("x/y");
  });
});
