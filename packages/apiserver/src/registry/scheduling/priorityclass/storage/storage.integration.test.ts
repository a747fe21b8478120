/**
 * scheduling.k8s.io/v1 PriorityClasses over HTTP as kube-apiserver 1.33 answers: the system classes
 * from the `scheduling/bootstrap-system-priority-classes` hook (rest/storage_scheduling.go), their
 * delete refused (storage.go REST.Delete), ValidatePriorityClass's 422s, the Priority admission
 * plugin on Pods and on a second globalDefault class (plugin/pkg/admission/priority/admission.go),
 * and real kubectl's `get priorityclasses` and `create priorityclass`.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../../server/testing.ts";

const base = "/apis/scheduling.k8s.io/v1/priorityclasses";
const pods = "/api/v1/namespaces/default/pods";
type Status = { code: number; reason: string; message: string };
type Pod = { spec: { priority?: number; priorityClassName?: string; preemptionPolicy?: string } };

const pc = (name: string, value: number, rest: Record<string, unknown> = {}) => ({
  apiVersion: "scheduling.k8s.io/v1",
  kind: "PriorityClass",
  metadata: { name },
  value,
  ...rest,
});
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
});

describe("PriorityClasses and the Priority admission plugin", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("bootstraps the two system classes, defaulted, and refuses to delete them", async () => {
    const got = await eventually(async () => {
      const r = await s.send("GET", `${base}/system-node-critical`);
      expect(r.status).toBe(200);
      return r.json();
    });
    expect(got).toMatchObject({ value: 2000001000, preemptionPolicy: "PreemptLowerPriority", metadata: { generation: 1 } });
    expect((await s.send("GET", `${base}/system-cluster-critical`)).json()).toMatchObject({ value: 2000000000 });
    const del = await s.send("DELETE", `${base}/system-cluster-critical`);
    expect(del.status).toBe(403);
    expect((del.json() as Status).message).toBe(
      'priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted',
    );
  });

  it("validates as ValidatePriorityClass and ValidatePriorityClassUpdate", async () => {
    const high = await s.send("POST", base, pc("too-high", 1_000_000_001));
    expect(high.status).toBe(422);
    expect((high.json() as Status).message).toBe(
      'PriorityClass.scheduling.k8s.io "too-high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
    expect((await s.send("POST", base, pc("immutable", 5))).status).toBe(201);
    const changed = await s.send("PUT", `${base}/immutable`, pc("immutable", 6));
    expect(changed.status).toBe(422);
    expect((changed.json() as Status).message).toContain("value: Forbidden: may not be changed in an update.");
  });

  it("gives a Pod without a class priority 0 and PreemptLowerPriority, and a Pod with one the class's values", async () => {
    const plain = await s.send("POST", pods, pod("plain"));
    expect(plain.status).toBe(201);
    expect((plain.json() as Pod).spec).toMatchObject({ priority: 0, preemptionPolicy: "PreemptLowerPriority" });
    expect((plain.json() as Pod).spec.priorityClassName).toBeUndefined();
    expect((await s.send("POST", base, pc("never", 50, { preemptionPolicy: "Never" }))).status).toBe(201);
    const withClass = await eventually(async () => {
      const r = await s.send("POST", pods, pod("with-class", { priorityClassName: "never" }));
      expect(r.status).toBe(201);
      return r.json() as Pod;
    });
    expect(withClass.spec).toMatchObject({ priorityClassName: "never", priority: 50, preemptionPolicy: "Never" });
  });

  it("refuses unknown classes and a given priority or policy that differs from the class's", async () => {
    const unknown = await s.send("POST", pods, pod("unknown", { priorityClassName: "nope" }));
    expect(unknown.status).toBe(403);
    expect((unknown.json() as Status).message).toBe('pods "unknown" is forbidden: no PriorityClass with name nope was found');
    const given = await s.send("POST", pods, pod("given", { priority: 7 }));
    expect((given.json() as Status).message).toBe(
      'pods "given" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    const policy = await s.send("POST", pods, pod("policy", { preemptionPolicy: "Never" }));
    expect((policy.json() as Status).message).toBe(
      'pods "policy" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    );
  });

  it("allows one globalDefault class, which then names and prioritises Pods without a class", async () => {
    expect((await s.send("POST", base, pc("default-a", 10, { globalDefault: true }))).status).toBe(201);
    const second = await eventually(async () => {
      const r = await s.send("POST", base, pc("default-b", 20, { globalDefault: true }));
      expect(r.status).toBe(403);
      return r.json() as Status;
    });
    expect(second.message).toBe(
      'priorityclasses.scheduling.k8s.io "default-b" is forbidden: PriorityClass default-a is already marked as default. Only one default can exist',
    );
    const p = (await s.send("POST", pods, pod("defaulted"))).json() as Pod;
    expect(p.spec).toMatchObject({ priorityClassName: "default-a", priority: 10, preemptionPolicy: "PreemptLowerPriority" });
    expect((await s.send("DELETE", `${base}/default-a`)).status).toBe(200);
  });

  it.skipIf(!haveKubectl())("kubectl create priorityclass (protobuf) and get pc print upstream's columns", async () => {
    const c = await s.kubectl([
      "create",
      "priorityclass",
      "kc",
      "--value=100",
      "--description=made by kubectl",
      "--preemption-policy=Never",
    ]);
    expect(c.stderr).toBe("");
    expect(c.stdout).toBe("priorityclass.scheduling.k8s.io/kc created\n");
    const g = await s.kubectl(["get", "pc", "kc", "system-node-critical"]);
    expect(g.stdout.split("\n")[0]).toMatch(/^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\s+PREEMPTIONPOLICY$/);
    expect(g.stdout).toMatch(/\nkc\s+100\s+false\s+\S+\s+Never\n/);
    expect(g.stdout).toMatch(/\nsystem-node-critical\s+2000001000\s+false\s+\S+\s+PreemptLowerPriority\n/);
  });
});
