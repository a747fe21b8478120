/**
 * `pods/eviction` over HTTP, after upstream's pkg/registry/core/pod/storage/eviction_test.go
 * (TestEviction, TestEvictionIgnorePDB, TestEvictionDryRun, TestEvictionPDBStatus, the
 * unhealthyPodEvictionPolicy rows) and test/integration/evictions/evictions_test.go
 * (TestConcurrentEvictionRequests, TestTerminalPodEviction): budgets' statuses are written through
 * `poddisruptionbudgets/status` as the disruption controller would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

type Status = {
  code: number;
  reason?: string;
  message: string;
  status: string;
  details?: { causes?: { reason: string; message: string }[]; retryAfterSeconds?: number };
};
type Obj = { metadata: { name: string; resourceVersion: string; generation?: number; uid: string }; status?: Record<string, unknown> };

const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const pdbsPath = (ns: string) => `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`;

describe("pods/eviction", () => {
  let s: TestServer;
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  async function namespace(): Promise<string> {
    const ns = `evict-${++n}`;
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
    return ns;
  }

  /** A Pod in `phase`, Ready when `ready`, with the test's labels. */
  async function pod(
    ns: string,
    name: string,
    phase: string,
    ready: boolean,
    labels: Record<string, string> = { a: "true" },
  ): Promise<Obj> {
    const created = await s.send("POST", podsPath(ns), {
      metadata: { name, labels },
      spec: { containers: [{ name: "c", image: "i" }], nodeName: "n1" },
    });
    expect(created.status, created.text).toBe(201);
    const p = created.json() as Obj;
    const status = { phase, conditions: [{ type: "Ready", status: ready ? "True" : "False" }] };
    const r = await s.send("PUT", `${podsPath(ns)}/${name}/status`, { ...p, status });
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  }

  /** A budget whose status the "controller" has already computed. */
  async function pdb(ns: string, name: string, spec: Record<string, unknown>, status: Record<string, number>): Promise<Obj> {
    const created = await s.send("POST", pdbsPath(ns), { metadata: { name }, spec: { selector: { matchLabels: { a: "true" } }, ...spec } });
    expect(created.status, created.text).toBe(201);
    const b = created.json() as Obj;
    const full = {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      observedGeneration: b.metadata.generation,
      ...status,
    };
    const r = await s.send("PUT", `${pdbsPath(ns)}/${name}/status`, { ...b, status: full });
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  }

  const evict = (ns: string, name: string, extra: Record<string, unknown> = {}, query = "") =>
    s.send("POST", `${podsPath(ns)}/${name}/eviction${query}`, { apiVersion: "policy/v1", kind: "Eviction", metadata: { name }, ...extra });

  const podStatus = async (ns: string, name: string) => (await s.send("GET", `${podsPath(ns)}/${name}`)).status;

  it("TestEviction: no disruptions allowed is a 429 with the DisruptionBudget cause", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Running", true);
    await pdb(ns, "foo", { minAvailable: 1 }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
    const r = await evict(ns, "foo");
    expect(r.status).toBe(429);
    expect(r.json() as Status).toMatchObject({
      status: "Failure",
      reason: "TooManyRequests",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: "DisruptionBudget", message: "The disruption budget foo needs 1 healthy pods and has 1 currently" }] },
    });
    expect(await podStatus(ns, "foo")).toBe(200);
  });

  it("TestEviction: disruptions allowed deletes the Pod, spends one and records it (TestEvictionPDBStatus)", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Running", true);
    await pdb(ns, "foo", { minAvailable: 1 }, { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    const r = await evict(ns, "foo");
    expect(r.status, r.text).toBe(201);
    expect(r.json()).toMatchObject({ kind: "Status", status: "Success" });
    // Graceful: the Pod is marked deleting, with the DisruptionTarget condition added first.
    const got = (await s.send("GET", `${podsPath(ns)}/foo`)).json() as {
      metadata: { deletionTimestamp?: string };
      status: { conditions: { type: string; reason?: string; message?: string }[] };
    };
    expect(got.metadata.deletionTimestamp).toBeDefined();
    expect(got.status.conditions).toContainEqual(
      expect.objectContaining({
        type: "DisruptionTarget",
        status: "True",
        reason: "EvictionByEvictionAPI",
        message: "Eviction API: evicting",
      }),
    );
    const budget = (await s.send("GET", `${pdbsPath(ns)}/foo`)).json() as {
      status: {
        disruptionsAllowed: number;
        disruptedPods: Record<string, string>;
        conditions: { type: string; status: string; reason: string }[];
      };
    };
    expect(budget.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(budget.status.disruptedPods)).toEqual(["foo"]);
    expect(budget.status.conditions).toContainEqual(
      expect.objectContaining({ type: "DisruptionAllowed", status: "False", reason: "InsufficientPods" }),
    );
  });

  it("TestEviction: a non-matching budget and a bad name in the URL", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Running", true, { b: "true" });
    await pdb(ns, "foo", { minAvailable: 1 }, { disruptionsAllowed: 0 });
    const bad = await s.send("POST", `${podsPath(ns)}/foo/eviction`, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "bar" },
    });
    expect(bad.status).toBe(400);
    expect((bad.json() as Status).message).toBe("name in URL does not match name in Eviction object");
    expect((await evict(ns, "foo")).status).toBe(201);
  });

  it("TestEvictionIgnorePDB: pending, succeeded and failed Pods are deleted whatever the budget", async () => {
    const ns = await namespace();
    await pdb(ns, "foo", { minAvailable: 1 }, { disruptionsAllowed: 0 });
    for (const [name, phase] of [
      ["pending", "Pending"],
      ["succeeded", "Succeeded"],
      ["failed", "Failed"],
    ] as const) {
      await pod(ns, name, phase, false);
      const r = await evict(ns, name, { deleteOptions: { gracePeriodSeconds: 0 } });
      expect(r.status, `${name}: ${r.text}`).toBe(201);
      expect(await podStatus(ns, name)).toBe(404);
    }
  });

  it("more than one budget is a 500 Status", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Running", true);
    await pdb(ns, "one", { minAvailable: 1 }, { disruptionsAllowed: 1 });
    await pdb(ns, "two", { minAvailable: 1 }, { disruptionsAllowed: 1 });
    const r = await evict(ns, "foo");
    expect(r.status).toBe(500);
    expect(r.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
      code: 500,
    });
  });

  it("a budget whose status is older than its spec is a 429 'still being processed'", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Running", true);
    const b = await pdb(ns, "foo", { minAvailable: 1 }, { disruptionsAllowed: 1 });
    const cur = (await s.send("GET", `${pdbsPath(ns)}/foo`)).json() as Obj & { spec: Record<string, unknown> };
    expect((await s.send("PUT", `${pdbsPath(ns)}/foo`, { ...cur, spec: { ...cur.spec, minAvailable: 2 } })).status).toBe(200);
    expect(b.metadata.generation).toBe(1);
    const r = await evict(ns, "foo");
    expect(r.status).toBe(429);
    expect((r.json() as Status).details).toEqual({
      causes: [{ reason: "DisruptionBudget", message: "The disruption budget foo is still being processed by the server." }],
      retryAfterSeconds: 10,
    });
  });

  it("TestEvictionDryRun: nothing is deleted or spent", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Running", true);
    await pdb(ns, "foo", { minAvailable: 1 }, { disruptionsAllowed: 1 });
    expect((await evict(ns, "foo", {}, "?dryRun=All")).status).toBe(201);
    expect((await evict(ns, "foo", { deleteOptions: { dryRun: ["All"] } })).status).toBe(201);
    const got = (await s.send("GET", `${podsPath(ns)}/foo`)).json() as { metadata: { deletionTimestamp?: string } };
    expect(got.metadata.deletionTimestamp).toBeUndefined();
    expect(
      ((await s.send("GET", `${pdbsPath(ns)}/foo`)).json() as { status: { disruptionsAllowed: number } }).status.disruptionsAllowed,
    ).toBe(1);
  });

  it("TestEvictionWithUnhealthyPodEvictionPolicy: an unready Pod goes under AlwaysAllow, or under IfHealthyBudget while the budget is met", async () => {
    const ns = await namespace();
    await pdb(
      ns,
      "foo",
      { minAvailable: 1, unhealthyPodEvictionPolicy: "IfHealthyBudget" },
      { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1 },
    );
    await pod(ns, "unready", "Running", false);
    expect((await evict(ns, "unready")).status).toBe(429);
    const cur = (await s.send("GET", `${pdbsPath(ns)}/foo`)).json() as Obj & { spec: Record<string, unknown> };
    const put = await s.send("PUT", `${pdbsPath(ns)}/foo`, { ...cur, spec: { ...cur.spec, unhealthyPodEvictionPolicy: "AlwaysAllow" } });
    expect(put.status, put.text).toBe(200);
    const r = await evict(ns, "unready", { deleteOptions: { gracePeriodSeconds: 0 } });
    expect(r.status, r.text).toBe(201);
    expect(await podStatus(ns, "unready")).toBe(404);

    const ns2 = await namespace();
    await pdb(ns2, "foo", { minAvailable: 1 }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 });
    await pod(ns2, "unready", "Running", false);
    expect((await evict(ns2, "unready", { deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect(await podStatus(ns2, "unready")).toBe(404);
  });

  it("TestConcurrentEvictionRequests: two disruptions allowed, ten evictions at once, two succeed", async () => {
    const ns = await namespace();
    for (let i = 0; i < 10; i++) await pod(ns, `p${i}`, "Running", true);
    await pdb(ns, "foo", { minAvailable: 8 }, { disruptionsAllowed: 2, currentHealthy: 10, desiredHealthy: 8, expectedPods: 10 });
    const codes = (await Promise.all(Array.from({ length: 10 }, (_, i) => evict(ns, `p${i}`)))).map((r) => r.status).sort();
    expect(codes).toEqual([201, 201, 429, 429, 429, 429, 429, 429, 429, 429]);
  });

  it("accepts a policy/v1beta1 Eviction body and is listed in discovery", async () => {
    const ns = await namespace();
    await pod(ns, "foo", "Failed", false);
    const r = await s.send("POST", `${podsPath(ns)}/foo/eviction`, {
      apiVersion: "policy/v1beta1",
      kind: "Eviction",
      metadata: { name: "foo" },
    });
    expect(r.status, r.text).toBe(201);
    const list = (await s.send("GET", "/api/v1")).json() as {
      resources: { name: string; group?: string; version?: string; kind: string; verbs: string[] }[];
    };
    expect(list.resources.find((x) => x.name === "pods/eviction")).toEqual({
      name: "pods/eviction",
      singularName: "",
      namespaced: true,
      group: "policy",
      version: "v1",
      kind: "Eviction",
      verbs: ["create"],
    });
  });
});
