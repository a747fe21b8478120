/**
 * apps/v1 StatefulSets and ControllerRevisions over HTTP (pkg/registry/apps/statefulset/storage/
 * storage_test.go, strategy_test.go; controllerrevision/storage/storage_test.go): defaults, the
 * zero status on create, generation on spec changes only, the update rules, status and scale.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies read field by field
type Json = any;
const body = (r: { json(): unknown }): Json => r.json();

const base = "/apis/apps/v1/namespaces/default/statefulsets";
const revisions = "/apis/apps/v1/namespaces/default/controllerrevisions";

const sts = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name },
  spec: {
    serviceName: "web",
    selector: { matchLabels: { app: "web" } },
    template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "i:1" }] } },
    ...extra,
  },
  status: { replicas: 7, readyReplicas: 3 },
});

describe("StatefulSets", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("create defaults and resets the status; a label change keeps the generation; scale bumps it", async () => {
    const created = await send("POST", base, sts("web"));
    expect(created.status).toBe(201);
    const obj = body(created);
    expect(obj).toMatchObject({
      metadata: { generation: 1 },
      spec: {
        replicas: 1,
        podManagementPolicy: "OrderedReady",
        updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
      },
    });
    // The zero StatefulSetStatus: replicas and availableReplicas are not omitempty.
    expect(obj.status).toEqual({ replicas: 0, availableReplicas: 0 });
    const labelled = await send("PATCH", `${base}/web`, { metadata: { labels: { x: "y" } } }, "application/merge-patch+json");
    expect(labelled.json()).toMatchObject({ metadata: { generation: 1, labels: { x: "y" } } });
    const scale = await send("GET", `${base}/web/scale`);
    expect(scale.json()).toMatchObject({
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      spec: { replicas: 1 },
      status: { replicas: 0, selector: "app=web" },
    });
    const up = await send("PATCH", `${base}/web/scale`, { spec: { replicas: 3 } }, "application/merge-patch+json");
    expect(up.json()).toMatchObject({ spec: { replicas: 3 } });
    expect(body(await send("GET", `${base}/web`))).toMatchObject({ metadata: { generation: 2 }, spec: { replicas: 3 } });
  });

  it("refuses updates of the immutable spec fields with upstream's message", async () => {
    await send("POST", base, sts("imm"));
    const res = await send("PATCH", `${base}/imm`, { spec: { serviceName: "other" } }, "application/merge-patch+json");
    expect(res.status).toBe(422);
    expect(body(res)).toMatchObject({
      reason: "Invalid",
      message:
        "StatefulSet.apps \"imm\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    });
  });

  it("status writes keep the spec and are validated", async () => {
    await send("POST", base, sts("st"));
    const cur = body(await send("GET", `${base}/st`));
    const put = await send("PUT", `${base}/st/status`, {
      ...cur,
      spec: { ...cur.spec, replicas: 9 },
      status: {
        replicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        observedGeneration: 1,
        currentRevision: "st-1",
        updateRevision: "st-1",
      },
    });
    expect(put.status).toBe(200);
    expect(body(put)).toMatchObject({ spec: { replicas: 1 }, status: { readyReplicas: 1, currentRevision: "st-1" } });
    const bad = await send("PUT", `${base}/st/status`, { ...body(put), status: { replicas: 1, readyReplicas: 2, availableReplicas: 0 } });
    expect(bad.status).toBe(422);
    expect(body(bad).message).toContain("status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas");
  });

  it("a DNS subdomain name is refused (StatefulSet names are DNS labels)", async () => {
    const res = await send("POST", base, sts("a.b"));
    expect(res.status).toBe(422);
    expect(body(res).message).toBe('StatefulSet.apps "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots');
  });
});

describe("ControllerRevisions", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("stores data and revision; data is immutable, data is mandatory", async () => {
    const crBody = {
      apiVersion: "apps/v1",
      kind: "ControllerRevision",
      metadata: { name: "web-1" },
      data: { spec: { template: {} } },
      revision: 1,
    };
    const created = await send("POST", revisions, crBody);
    expect(created.status).toBe(201);
    expect(body(created)).toMatchObject({ revision: 1, data: { spec: { template: {} } } });
    const changed = await send("PATCH", `${revisions}/web-1`, { data: { spec: { x: 1 } } }, "application/merge-patch+json");
    expect(changed.status).toBe(422);
    expect(body(changed).message).toContain("data: Invalid value");
    const bumped = await send("PATCH", `${revisions}/web-1`, { revision: 2 }, "application/merge-patch+json");
    expect(bumped.json()).toMatchObject({ revision: 2 });
    const noData = await send("POST", revisions, { ...crBody, metadata: { name: "web-2" }, data: undefined });
    expect(noData.status).toBe(422);
    expect(body(noData).message).toBe('ControllerRevision.apps "web-2" is invalid: data: Required value: data is mandatory');
  });
});
