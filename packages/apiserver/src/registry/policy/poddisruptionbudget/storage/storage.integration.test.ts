/**
 * policy/v1 PodDisruptionBudgets over HTTP as kube-apiserver 1.33 answers: the strategy's status
 * reset and generation (pkg/registry/policy/poddisruptionbudget/strategy.go), ValidatePodDisruptionBudget's
 * 422s, the status subresource, and real kubectl's `create pdb` (a protobuf body) and `get pdb`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../../server/testing.ts";

const base = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
type Status = { code: number; reason: string; message: string };
type PDB = {
  metadata: { name: string; generation: number; resourceVersion: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status: Record<string, unknown>;
};

const pdb = (name: string, spec: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
  apiVersion: "policy/v1",
  kind: "PodDisruptionBudget",
  metadata: { name },
  spec,
  ...rest,
});

describe("PodDisruptionBudgets", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("drops a created status for the zero one and starts at generation 1", async () => {
    const r = await s.send(
      "POST",
      base,
      pdb("web", { minAvailable: 1, selector: { matchLabels: { app: "web" } } }, { status: { disruptionsAllowed: 5 } }),
    );
    expect(r.status, r.text).toBe(201);
    const got = r.json() as PDB;
    expect(got.metadata.generation).toBe(1);
    expect(got.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });

  it("bumps the generation on a spec change only, and keeps the status on a main-resource update", async () => {
    const cur = (await s.send("GET", `${base}/web`)).json() as PDB;
    const st = await s.send("PUT", `${base}/web/status`, {
      ...cur,
      status: { ...cur.status, observedGeneration: 1, disruptionsAllowed: 2 },
    });
    expect(st.status, st.text).toBe(200);
    const afterStatus = st.json() as PDB;
    const labelled = await s.send("PUT", `${base}/web`, {
      ...afterStatus,
      metadata: { ...afterStatus.metadata, labels: { a: "b" } },
      status: {},
    });
    expect(labelled.status, labelled.text).toBe(200);
    expect((labelled.json() as PDB).metadata.generation).toBe(1);
    expect((labelled.json() as PDB).status).toMatchObject({ disruptionsAllowed: 2, observedGeneration: 1 });
    const l = labelled.json() as PDB;
    const spec = await s.send("PUT", `${base}/web`, { ...l, spec: { ...l.spec, minAvailable: 2 } });
    expect((spec.json() as PDB).metadata.generation).toBe(2);
    // A PUT without the resourceVersion it read is refused (AllowUnconditionalUpdate is false).
    const s2 = spec.json() as PDB;
    const unconditional = await s.send("PUT", `${base}/web`, {
      ...s2,
      metadata: { ...s2.metadata, labels: { c: "d" }, resourceVersion: undefined },
    });
    expect(unconditional.status).toBe(422);
    expect((unconditional.json() as Status).message).toBe(
      'poddisruptionbudgets.policy "web" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    // Also when the body changes nothing: Store.Update checks the resourceVersion before storage
    // sees unchanged bytes.
    const noOp = await s.send("PUT", `${base}/web`, { ...s2, metadata: { ...s2.metadata, resourceVersion: undefined } });
    expect(noOp.status, noOp.text).toBe(422);
  });

  it("the status subresource keeps the stored spec and validates the counts", async () => {
    const cur = (await s.send("GET", `${base}/web`)).json() as PDB;
    const r = await s.send("PUT", `${base}/web/status`, {
      ...cur,
      spec: { maxUnavailable: 3 },
      status: { ...cur.status, expectedPods: 4 },
    });
    expect(r.status, r.text).toBe(200);
    expect((r.json() as PDB).spec).toMatchObject({ minAvailable: 2 });
    const bad = await s.send("PUT", `${base}/web/status`, { ...(r.json() as PDB), status: { ...cur.status, currentHealthy: -1 } });
    expect(bad.status).toBe(422);
    expect((bad.json() as Status).message).toBe(
      'PodDisruptionBudget.policy "web" is invalid: status.currentHealthy: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      "both bounds",
      { minAvailable: 1, maxUnavailable: 1 },
      'PodDisruptionBudget.policy "bad" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    ],
    [
      "over 100%",
      { maxUnavailable: "101%" },
      'PodDisruptionBudget.policy "bad" is invalid: spec.maxUnavailable: Invalid value: "101%": must not be greater than 100%',
    ],
    [
      "unknown policy",
      { minAvailable: 1, unhealthyPodEvictionPolicy: "Sometimes" },
      'PodDisruptionBudget.policy "bad" is invalid: spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ],
  ])("refuses %s with 422", async (_name, spec, message) => {
    const r = await s.send("POST", base, pdb("bad", spec));
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(message);
  });

  it.skipIf(!haveKubectl())("kubectl create pdb (protobuf), get pdb and the pdb short name", async () => {
    const c = await s.kubectl(["create", "pdb", "kc", "--selector=app=rails", "--max-unavailable=25%"]);
    expect(c.stderr).toBe("");
    expect(c.stdout).toBe("poddisruptionbudget.policy/kc created\n");
    const got = (await s.send("GET", `${base}/kc`)).json() as PDB;
    expect(got.spec).toEqual({ maxUnavailable: "25%", selector: { matchLabels: { app: "rails" } } });
    const zero = await s.kubectl(["create", "pdb", "kc0", "--selector=app=db", "--min-available=0"]);
    expect(zero.stderr).toBe("");
    expect(((await s.send("GET", `${base}/kc0`)).json() as PDB).spec).toMatchObject({ minAvailable: 0 });
    const table = await s.kubectl(["get", "pdb"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/);
    expect(table.stdout).toMatch(/^kc\s+N\/A\s+25%\s+0\s+\d+s$/m);
    expect(table.stdout).toMatch(/^kc0\s+0\s+N\/A\s+0\s+\d+s$/m);
    const res = await s.kubectl(["api-resources", "--api-group=policy"]);
    expect(res.stdout).toMatch(/^poddisruptionbudgets\s+pdb\s+policy\/v1\s+true\s+PodDisruptionBudget$/m);
  });
});
