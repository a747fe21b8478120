/**
 * The ClusterRole aggregation controller of the controller-manager against the real apiserver
 * (`@servicenet/apiserver/envtest`, in process, over HTTP): aggregated rules appear, follow a
 * component role's change and its label's removal, and are written by a server-side apply whose
 * field manager is clusterrole-aggregation-controller.
 */
import { KubeConfig, RbacAuthorizationV1Api, type V1ClusterRole } from "@kubernetes/client-node";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import { testEnvironmentControllers } from "@servicenet/controller-manager";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const label = "rbac.example.com/aggregate-to-monitoring";

describe("clusterrole-aggregation controller on the real apiserver", () => {
  let env: TestEnvironment;
  let rbac: RbacAuthorizationV1Api;
  beforeAll(async () => {
    env = await startTestEnvironment({ controllers: testEnvironmentControllers(["clusterrole-aggregation"]) });
    const kc = new KubeConfig();
    kc.loadFromString(env.kubeconfig);
    rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  });
  afterAll(() => env?.stop());

  const rulesOf = async (name: string) => (await rbac.readClusterRole({ name })).rules ?? [];
  const component = (name: string, verbs: string[], labels: Record<string, string> = { [label]: "true" }): V1ClusterRole => ({
    metadata: { name, labels },
    rules: [{ apiGroups: [""], resources: ["pods"], verbs }],
  });

  it("fills, updates and empties the rules of an aggregated ClusterRole", async () => {
    await rbac.createClusterRole({ body: component("mon-b", ["list"]) });
    await rbac.createClusterRole({ body: component("mon-a", ["get"]) });
    await rbac.createClusterRole({ body: component("mon-dup", ["get"]) });
    await rbac.createClusterRole({ body: component("other", ["delete"], { team: "x" }) });
    await rbac.createClusterRole({
      body: { metadata: { name: "monitoring" }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: "true" } }] } },
    });

    // By name (mon-a, mon-b, mon-dup), the duplicate of mon-a's rule left out.
    const want = [
      { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
    ];
    await eventually(async () => JSON.stringify(await rulesOf("monitoring")) === JSON.stringify(want), { what: "aggregated rules" });
    const managers = (await rbac.readClusterRole({ name: "monitoring" })).metadata?.managedFields?.map((m) => [m.manager, m.operation]);
    expect(managers).toContainEqual(["clusterrole-aggregation-controller", "Apply"]);

    // A component's rules change: the aggregate follows.
    const b = await rbac.readClusterRole({ name: "mon-b" });
    b.rules = [{ apiGroups: [""], resources: ["pods"], verbs: ["watch"] }];
    await rbac.replaceClusterRole({ name: "mon-b", body: b });
    await eventually(async () => (await rulesOf("monitoring")).some((r) => r.verbs.includes("watch")), { what: "mon-b's new rule" });

    // Labels removed from every component: the aggregate ends with no rules.
    for (const name of ["mon-a", "mon-b", "mon-dup"]) {
      const r = await rbac.readClusterRole({ name });
      r.metadata!.labels = {};
      await rbac.replaceClusterRole({ name, body: r });
    }
    await eventually(async () => (await rulesOf("monitoring")).length === 0, { what: "rules dropped" });
  });
});
