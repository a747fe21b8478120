/**
 * apps/v1 ReplicaSets over HTTP (pkg/registry/apps/replicaset/storage/storage_test.go): the zero
 * status on create, generation on spec changes only, and the scale subresource.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const base = "/apis/apps/v1/namespaces/default/replicasets";

describe("ReplicaSets", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("create, label-only update, scale", async () => {
    const created = await send("POST", base, {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: { name: "rs" },
      spec: {
        selector: { matchExpressions: [{ key: "app", operator: "In", values: ["b", "a"] }] },
        template: { metadata: { labels: { app: "a" } }, spec: { containers: [{ name: "c", image: "i:1" }] } },
      },
      status: { replicas: 7 },
    });
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ metadata: { generation: 1 }, spec: { replicas: 1 }, status: { replicas: 0 } });
    const labelled = await send("PATCH", `${base}/rs`, { metadata: { labels: { x: "y" } } }, "application/merge-patch+json");
    expect(labelled.json()).toMatchObject({ metadata: { generation: 1, labels: { x: "y" } } });
    const scale = await send("GET", `${base}/rs/scale`);
    expect(scale.json()).toMatchObject({ kind: "Scale", spec: { replicas: 1 }, status: { replicas: 0, selector: "app in (a,b)" } });
    const up = await send("PATCH", `${base}/rs/scale`, { spec: { replicas: 4 } }, "application/merge-patch+json");
    expect(up.json()).toMatchObject({ spec: { replicas: 4 } });
    expect((await send("GET", `${base}/rs`)).json()).toMatchObject({ metadata: { generation: 2 }, spec: { replicas: 4 } });
  });
});
