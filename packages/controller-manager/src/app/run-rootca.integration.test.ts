/**
 * runControllerManager with root-ca-certificate-publisher-controller against the in-test fake
 * apiserver over HTTP: the kubeconfig cluster's CA is published as kube-root-ca.crt, and an edited
 * one is restored.
 */
import { KubeConfig } from "@kubernetes/client-node";
import type { ConfigMap } from "@servicenet/api";
import { FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { description, descriptionAnnotation } from "../controller/certificates/rootcacertpublisher/publisher.ts";
import { runControllerManager } from "./run.ts";

const ca = "-----BEGIN CERTIFICATE-----\nservicenet test CA\n-----END CERTIFICATE-----\n";
let server: FakeAPIServer | undefined;
const stop = new AbortController();
afterEach(async () => {
  stop.abort();
  await server?.stop();
});

describe("root-ca-certificate-publisher-controller over HTTP", () => {
  it("creates kube-root-ca.crt with the kubeconfig's CA and restores an edited one", async () => {
    server = new FakeAPIServer();
    server.tracker.add(
      [
        { metadata: { name: "default" }, status: { phase: "Active" } },
        { metadata: { name: "edited" }, status: { phase: "Active" } },
      ],
      "namespaces",
    );
    server.tracker.add(
      [{ metadata: { name: "kube-root-ca.crt", namespace: "edited", labels: { a: "b" } }, data: { "ca.crt": "old" } }],
      "configmaps",
    );
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: "fake", server: await server.start(), skipTLSVerify: true, caData: Buffer.from(ca).toString("base64") },
      { name: "u", token: "t" },
    );
    const done = runControllerManager({ kubeConfig: kc, controllers: ["root-ca-certificate-publisher-controller"] }, stop.signal);

    const created = await server.waitForAction((w) => w.method === "POST" && w.path === "/api/v1/namespaces/default/configmaps");
    expect(created.body as ConfigMap).toMatchObject({
      metadata: { name: "kube-root-ca.crt", annotations: { [descriptionAnnotation]: description } },
      data: { "ca.crt": ca },
    });
    const updated = await server.waitForAction(
      (w) => w.method === "PUT" && w.path === "/api/v1/namespaces/edited/configmaps/kube-root-ca.crt",
    );
    expect((updated.body as ConfigMap).data).toEqual({ "ca.crt": ca });
    expect((updated.body as ConfigMap).metadata.labels).toEqual({ a: "b" });
    expect((updated.body as ConfigMap).metadata.annotations).toEqual({ [descriptionAnnotation]: description });

    stop.abort();
    expect(await done).toBe("stopped");
  });
});
