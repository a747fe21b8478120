/**
 * apps/v1 Deployments over HTTP (pkg/registry/apps/deployment/storage/storage_test.go): defaulting,
 * generation on spec changes only, the status subresource, the immutable selector and the scale
 * subresource (autoscaling/v1 Scale: TestScaleGet, TestScaleUpdate).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const base = "/apis/apps/v1/namespaces/default/deployments";
type Obj = { metadata: { generation?: number; resourceVersion?: string }; spec: Record<string, unknown>; status?: Record<string, unknown> };
type Status = { code: number; reason: string; message: string };

const deployment = (name: string, replicas = 3) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "nginx", image: "nginx" }] } },
  },
});

describe("Deployments", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("create defaults the spec and the pod template, generation 1, empty status", async () => {
    const r = await send("POST", base, deployment("web"));
    expect(r.status).toBe(201);
    const d = r.json() as Obj;
    expect(d.metadata.generation).toBe(1);
    expect(d.status).toEqual({});
    expect(d.spec).toMatchObject({
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { spec: { restartPolicy: "Always", dnsPolicy: "ClusterFirst", schedulerName: "default-scheduler" } },
    });
  });

  it("a selector that does not match the template is 422 with upstream's message", async () => {
    const bad = deployment("bad");
    bad.spec.selector.matchLabels.app = "other";
    const r = await send("POST", base, bad);
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(
      'Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"bad"}: `selector` does not match template `labels`',
    );
  });

  it("status updates keep the spec; spec updates bump the generation; the selector is immutable", async () => {
    await send("POST", base, deployment("gen"));
    const st = await send(
      "PATCH",
      `${base}/gen/status`,
      { status: { replicas: 3 }, spec: { replicas: 9 } },
      "application/merge-patch+json",
    );
    expect(st.status).toBe(200);
    expect(st.json()).toMatchObject({ metadata: { generation: 1 }, spec: { replicas: 3 }, status: { replicas: 3 } });
    const up = await send("PATCH", `${base}/gen`, { spec: { minReadySeconds: 5 } }, "application/merge-patch+json");
    expect(up.json()).toMatchObject({ metadata: { generation: 2 }, status: { replicas: 3 } });
    const sel = await send(
      "PATCH",
      `${base}/gen`,
      { spec: { selector: { matchLabels: { app: "gen", x: "y" } }, template: { metadata: { labels: { app: "gen", x: "y" } } } } },
      "application/merge-patch+json",
    );
    expect(sel.status).toBe(422);
    expect((sel.json() as Status).message).toContain("spec.selector: Invalid value: ");
    expect((sel.json() as Status).message).toContain("field is immutable");
  });

  it("scale: GET is an autoscaling/v1 Scale; PATCH and PUT change spec.replicas", async () => {
    await send("POST", base, deployment("sc", 2));
    const g = await send("GET", `${base}/sc/scale`);
    expect(g.status).toBe(200);
    expect(g.json()).toMatchObject({
      apiVersion: "autoscaling/v1",
      kind: "Scale",
      spec: { replicas: 2 },
      status: { replicas: 0, selector: "app=sc" },
    });
    const p = await send("PATCH", `${base}/sc/scale`, { spec: { replicas: 5 } }, "application/merge-patch+json");
    expect(p.status).toBe(200);
    expect(p.json()).toMatchObject({ kind: "Scale", spec: { replicas: 5 } });
    const d = (await send("GET", `${base}/sc`)).json() as Obj;
    expect(d.spec["replicas"]).toBe(5);
    expect(d.metadata.generation).toBe(2);
    const put = await send("PUT", `${base}/sc/scale`, {
      apiVersion: "autoscaling/v1",
      kind: "Scale",
      metadata: { name: "sc", resourceVersion: "1" },
      spec: { replicas: 1 },
    });
    expect(put.status).toBe(409);
    const neg = await send("PATCH", `${base}/sc/scale`, { spec: { replicas: -1 } }, "application/merge-patch+json");
    expect(neg.status).toBe(422);
    expect((neg.json() as Status).message).toBe(
      'Scale.autoscaling "sc" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it("scale writes move spec.replicas between managedFields entries (fieldmanager ScaleHandler)", async () => {
    expect((await send("POST", `${base}?fieldManager=creator`, deployment("mf", 2))).status).toBe(201);
    const p = await send("PATCH", `${base}/mf/scale?fieldManager=scaler`, { spec: { replicas: 4 } }, "application/merge-patch+json");
    expect(p.status, p.text).toBe(200);
    type Entry = { manager: string; fieldsV1: { "f:spec"?: Record<string, unknown> } };
    const entries = ((await send("GET", `${base}/mf`)).json() as { metadata: { managedFields: Entry[] } }).metadata.managedFields;
    // The scaler's entry has no time: ToParent takes it from the parent's entries, which have none for it.
    expect(entries.find((e) => e.manager === "scaler")).toEqual({
      manager: "scaler",
      operation: "Update",
      apiVersion: "apps/v1",
      subresource: "scale",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:spec": { "f:replicas": {} } },
    });
    const creator = entries.find((e) => e.manager === "creator")!;
    expect(creator.fieldsV1["f:spec"]).not.toHaveProperty("f:replicas");
    expect(creator.fieldsV1["f:spec"]).toHaveProperty("f:selector");

    // A PUT of the Scale by a third manager takes the field over in turn.
    const scale = (await send("GET", `${base}/mf/scale`)).json() as { metadata: Record<string, unknown> };
    const put = await send("PUT", `${base}/mf/scale?fieldManager=putter`, { ...scale, spec: { replicas: 6 } });
    expect(put.status, put.text).toBe(200);
    const after = ((await send("GET", `${base}/mf`)).json() as { metadata: { managedFields: Entry[] } }).metadata.managedFields;
    expect(after.map((e) => e.manager).sort()).toEqual(["creator", "putter"]);
  });

  it("discovery lists deployments/scale as autoscaling/v1 Scale", async () => {
    const list = (await send("GET", "/apis/apps/v1")).json() as {
      resources: { name: string; group?: string; version?: string; kind: string }[];
    };
    expect(list.resources.find((r) => r.name === "deployments/scale")).toMatchObject({
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
    });
    expect(list.resources.find((r) => r.name === "deployments")).toMatchObject({ kind: "Deployment", shortNames: ["deploy"] });
  });
});
