/**
 * Plumbing test: the Endpoints controller, its informers and its client
 * all go through client-node over HTTP to an in-test fake apiserver.
 */
import { KubeConfig } from "@kubernetes/client-node";
import type { Endpoints } from "@servicenet/api";
import { expired, FakeAPIServer, once } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { makeInformers } from "../app/informers.ts";
import { dualStackPods, makePod, makeService } from "../testing/fixtures.ts";
import { endpointsClient } from "./endpoints-client.ts";
import { EndpointsController } from "./endpoints-controller.ts";

let server: FakeAPIServer | undefined;
const stop = new AbortController();
afterEach(async () => {
  stop.abort();
  await server?.stop();
});

const ips = (ep: unknown) => ((ep as Endpoints).subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)).sort();

describe("EndpointsController over HTTP", () => {
  it("lists and watches Services and Pods, creates then updates Endpoints; relists after a 410 watch", async () => {
    server = new FakeAPIServer();
    server.tracker.add([makeService()]);
    server.tracker.add(dualStackPods(3), "pods");
    server.prependReactor(
      "watch",
      "pods",
      once(() => ({ events: [{ type: "ERROR", object: expired() }] })),
    );
    const url = await server.start();
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: url, skipTLSVerify: true }, { name: "u", token: "t" });
    const inf = makeInformers(kc);
    const c = new EndpointsController({ services: inf.services, pods: inf.pods, endpoints: inf.endpoints, client: endpointsClient(kc) });
    const running = c.run(stop.signal, 2);
    await Promise.all([inf.services.start(), inf.pods.start(), inf.endpoints.start()]);

    const created = await server.waitForAction((w) => w.method === "POST");
    expect(created.path).toBe("/api/v1/namespaces/default/endpoints");
    // Dual-stack Service: legacy Endpoints carry the primary (IPv4) family only.
    expect(ips(created.body)).toEqual(["10.244.0.1", "10.244.0.2", "10.244.0.3"]);
    expect((created.body as Endpoints).metadata).toMatchObject({ name: "web", namespace: "default" });

    // A fourth pod arrives over the watch; the update carries the stored resourceVersion.
    server.tracker.add([makePod({ name: "p9", ips: ["10.244.9.9", "fd00::9"] })], "pods");
    const updated = await server.waitForAction((w) => w.method === "PUT");
    expect(updated.path).toBe("/api/v1/namespaces/default/endpoints/web");
    expect(ips(updated.body)).toEqual(["10.244.0.1", "10.244.0.2", "10.244.0.3", "10.244.9.9"]);
    expect((updated.body as Endpoints).metadata.resourceVersion).toMatch(/^\d+$/);
    // The first pods watch was answered with 410 Expired: the informer listed again.
    expect(server.actions.filter((a) => a.verb === "list" && a.resource.name === "pods").length).toBeGreaterThanOrEqual(2);

    stop.abort();
    await running;
    await Promise.all([inf.services.stop(), inf.pods.stop(), inf.endpoints.stop()]);
  });
});
