/**
 * Real kubectl 1.33 against apps/v1: `create deployment` (its protobuf body), `get` with
 * printDeployment's and printReplicaSet's columns, `scale` through the autoscaling/v1 Scale
 * subresource, and `explain` from the published OpenAPI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../../server/testing.ts";

const replicaSet = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: front
spec:
  replicas: 2
  selector: {matchLabels: {tier: front}}
  template:
    metadata: {labels: {tier: front}}
    spec:
      containers: [{name: php, image: php:8}]
`;

describe.skipIf(!haveKubectl())("real kubectl 1.33 and apps/v1", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("create deployment, get -o wide, scale", async () => {
    const c = await s.kubectl(["create", "deployment", "web", "--image=nginx", "--replicas=3", "--port=80"]);
    expect(c.stdout, c.stderr).toBe("deployment.apps/web created\n");
    const g = await s.kubectl(["get", "deploy", "-o", "wide"]);
    expect(g.stdout).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\n/);
    expect(g.stdout).toMatch(/^web\s+0\/3\s+0\s+0\s+\S+\s+nginx\s+nginx\s+app=web$/m);
    const sc = await s.kubectl(["scale", "deployment", "web", "--replicas=5"]);
    expect(sc.stdout, sc.stderr).toBe("deployment.apps/web scaled\n");
    const r = await s.kubectl([
      "get",
      "deploy",
      "web",
      "-o",
      "jsonpath={.spec.replicas} {.metadata.generation} {.spec.template.spec.containers[0].imagePullPolicy}",
    ]);
    expect(r.stdout).toBe("5 2 Always");
  });

  it("apply a ReplicaSet and get rs", async () => {
    const a = await s.kubectl(["apply", "-f", "-"], { input: replicaSet });
    expect(a.stdout, a.stderr).toBe("replicaset.apps/front created\n");
    const g = await s.kubectl(["get", "rs"]);
    expect(g.stdout).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\n/);
    expect(g.stdout).toMatch(/^front\s+2\s+0\s+0\s+\S+$/m);
  });

  it("explain deployment.spec lists the fields", async () => {
    const e = await s.kubectl(["explain", "deployment.spec"]);
    expect(e.code, e.stderr).toBe(0);
    for (const f of [
      "minReadySeconds",
      "paused",
      "progressDeadlineSeconds",
      "replicas",
      "revisionHistoryLimit",
      "selector",
      "strategy",
      "template",
    ])
      expect(e.stdout).toContain(`  ${f}\t`);
  });
});
