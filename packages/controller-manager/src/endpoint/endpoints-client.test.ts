/**
 * The Endpoints client's requests: the paths, verbs and bodies of client-go's typed Endpoints
 * client (apiVersion and kind set), the controller's user agent (the field manager the apiserver
 * records), and a delete of Endpoints already gone is no error.
 */
import type { Endpoints } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import { recordingServer } from "../testing/recording-server.ts";
import { endpointsClient } from "./endpoints-client.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

const endpoints: Endpoints = {
  metadata: { name: "web", namespace: "ns" },
  subsets: [{ addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 80, protocol: "TCP" }] }],
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

describe("endpointsClient", () => {
  it("creates, replaces and deletes through the core v1 paths with typed bodies", async () => {
    const srv = await recordingServer((r) =>
      r.method === "DELETE"
        ? { status: 404, body: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 } }
        : { status: 201, body: r.body },
    );
    close = srv.close;
    const c = endpointsClient(srv.kubeConfig);
    await c.create("ns", endpoints);
    const updated = await c.update("ns", endpoints);
    expect(updated.subsets).toEqual(endpoints.subsets);
    await c.delete("ns", "web");
    expect(srv.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/namespaces/ns/endpoints",
      "PUT /api/v1/namespaces/ns/endpoints/web",
      "DELETE /api/v1/namespaces/ns/endpoints/web",
    ]);
    expect(srv.requests[0]!.body).toEqual({ ...endpoints, apiVersion: "v1", kind: "Endpoints" });
    expect(srv.requests.map((r) => r.userAgent)).toEqual(Array(3).fill(controllerUserAgent("endpoint-controller")));
  });
});
