/**
 * Classification against the bootstrap configuration (upstream util/flowcontrol/match_test.go and
 * the apf_controller's digest): which FlowSchema and priority level a request lands in, its flow
 * distinguisher, and the levels' nominal concurrency limits (ceil(600 x shares / 245)).
 */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { defaultedBootstrapConfiguration } from "@servicenet/api/flowcontrol/v1";
import { APFConfig, hashFlowID } from "./apf-controller.ts";
import type { RequestDigest } from "./match.ts";

function bootstrapConfig(): APFConfig {
  const { flowSchemas, priorityLevels } = defaultedBootstrapConfiguration();
  const c = new APFConfig(600, new FakeClock());
  c.update(flowSchemas, priorityLevels);
  return c;
}

const authn = "system:authenticated";
const res = (verb: string, apiGroup: string, resource: string, namespace = "", subresource = "") =>
  ({ isResourceRequest: true, verb, apiGroup, resource, namespace, subresource, name: "" }) as const;
const nonRes = (verb: string, path: string) => ({ isResourceRequest: false, verb, path }) as const;
const user = (name: string, ...groups: string[]) => ({ name, uid: "", groups });

describe("classification with the bootstrap configuration", () => {
  const c = bootstrapConfig();
  it.each<[string, RequestDigest, string, string, string]>([
    ["system:masters", { user: user("admin", "system:masters", authn), requestInfo: res("list", "", "services") }, "exempt", "exempt", ""],
    [
      "a probe",
      { user: user("system:anonymous", "system:unauthenticated"), requestInfo: nonRes("get", "/readyz") },
      "probes",
      "exempt",
      "",
    ],
    [
      "a node's own Node",
      { user: user("system:node:n1", "system:nodes", authn), requestInfo: res("update", "", "nodes", "", "status") },
      "system-node-high",
      "node-high",
      "system:node:n1",
    ],
    [
      "a node's pods",
      { user: user("system:node:n1", "system:nodes", authn), requestInfo: res("list", "", "pods", "default") },
      "system-nodes",
      "system",
      "system:node:n1",
    ],
    [
      "leader election of the controller-manager",
      { user: user("system:kube-controller-manager", authn), requestInfo: res("update", "coordination.k8s.io", "leases", "kube-system") },
      "system-leader-election",
      "leader-election",
      "system:kube-controller-manager",
    ],
    [
      "the endpoints controller",
      {
        user: user(
          "system:serviceaccount:kube-system:endpoint-controller",
          "system:serviceaccounts",
          "system:serviceaccounts:kube-system",
          authn,
        ),
        requestInfo: res("update", "", "endpoints", "default"),
      },
      "endpoint-controller",
      "workload-high",
      "system:serviceaccount:kube-system:endpoint-controller",
    ],
    [
      "a kube-system controller by namespace",
      {
        user: user("system:serviceaccount:kube-system:replicaset-controller", "system:serviceaccounts", authn),
        requestInfo: res("list", "", "pods", "web"),
      },
      "kube-system-service-accounts",
      "workload-high",
      "web",
    ],
    [
      "another namespace's service account",
      {
        user: user("system:serviceaccount:default:app", "system:serviceaccounts", authn),
        requestInfo: res("get", "", "services", "default"),
      },
      "service-accounts",
      "workload-low",
      "system:serviceaccount:default:app",
    ],
    [
      "a user",
      { user: user("alice", authn), requestInfo: res("list", "", "services", "team") },
      "global-default",
      "global-default",
      "alice",
    ],
    [
      "an anonymous discovery",
      { user: user("system:anonymous", "system:unauthenticated"), requestInfo: nonRes("get", "/api") },
      "global-default",
      "global-default",
      "system:anonymous",
    ],
    ["no group matches", { user: user("nobody"), requestInfo: nonRes("get", "/api") }, "catch-all", "catch-all", ""],
  ])("%s", (_name, digest, fs, pl, distinguisher) => {
    const got = c.classify(digest);
    expect([got.flowSchema.metadata.name, got.priorityLevel.name, got.flowDistinguisher]).toEqual([fs, pl, distinguisher]);
    // Flows are told apart only on a level with queues to pick among (catch-all rejects, exempt runs).
    expect(got.flowHash).toBe(distinguisher === "" ? 0n : hashFlowID(fs, distinguisher));
  });

  it("nominal limits are the shares of 600 seats, max seats a hand's share up to 10", () => {
    const limits = Object.fromEntries(c.priorityLevels.map((p) => [p.name, [p.nominalCL, p.maxSeats]]));
    expect(limits).toEqual({
      exempt: [0, 10],
      "catch-all": [13, 10],
      system: [74, 10],
      "node-high": [98, 10],
      "leader-election": [25, 7],
      "workload-high": [98, 10],
      "workload-low": [245, 10],
      "global-default": [49, 9],
    });
  });

  it("imagines the mandatory objects when the configuration lacks them and skips dangling FlowSchemas", () => {
    const d = new APFConfig(600, new FakeClock());
    const dangling = {
      metadata: { name: "dangling" },
      spec: {
        priorityLevelConfiguration: { name: "missing" },
        matchingPrecedence: 5,
        rules: [{ subjects: [{ kind: "Group", group: { name: "*" } }], nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }] }],
      },
    };
    d.update([dangling], []);
    expect(d.flowSchemas.map((f) => f.metadata.name)).toEqual(["exempt", "catch-all"]);
    expect(d.priorityLevels.map((p) => [p.name, p.nominalCL])).toEqual([
      ["exempt", 0],
      ["catch-all", 600],
    ]);
  });
});
