/**
 * `@servicenet/apiserver/envtest` with controller-manager's namespace controller in the test's
 * process (over HTTP): a deleted namespace is emptied and goes, as on a cluster.
 */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("envtest with the namespace controller", () => {
  let env: TestEnvironment;
  beforeAll(async () => {
    env = await startTestEnvironment({ controllers: testEnvironmentControllers(["namespace"]) });
  });
  afterAll(() => env?.stop());

  it("a deleted namespace turns Terminating, is emptied and goes", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "short-lived" } } });
    await core.createNamespacedService({ namespace: "short-lived", body: { metadata: { name: "web" }, spec: { ports: [{ port: 80 }] } } });
    await core.deleteNamespace({ name: "short-lived" });
    expect((await core.readNamespace({ name: "short-lived" })).status?.phase).toBe("Terminating");
    const gone = await eventually(
      () =>
        core.readNamespace({ name: "short-lived" }).then(
          () => undefined,
          (e: unknown) => ((e as { code?: number }).code === 404 ? true : undefined),
        ),
      { timeoutMs: 20_000 },
    );
    expect(gone).toBe(true);
  });
});
