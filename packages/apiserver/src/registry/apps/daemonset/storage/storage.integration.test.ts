/**
 * apps/v1 DaemonSets over HTTP (pkg/registry/apps/daemonset/storage/storage_test.go and
 * strategy_test.go): defaults, the zero status, generation and the templateGeneration annotation,
 * the immutable selector, and the status subresource.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies read field by field
type Json = any;
const body = (r: { json(): unknown }): Json => r.json();

const base = "/apis/apps/v1/namespaces/default/daemonsets";
const ds = (name: string) => ({
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "i:1" }] } },
  },
  status: { numberReady: 4 },
});

describe("DaemonSets", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("create defaults and resets the status; template changes bump both generations, other spec changes one", async () => {
    const created = await send("POST", base, ds("agent"));
    expect(created.status).toBe(201);
    const obj = body(created);
    expect(obj).toMatchObject({
      metadata: { generation: 1, annotations: { "deprecated.daemonset.template.generation": "1" } },
      spec: { updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 },
    });
    expect(obj.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const labelled = await send("PATCH", `${base}/agent`, { metadata: { labels: { x: "y" } } }, "application/merge-patch+json");
    expect(labelled.json()).toMatchObject({ metadata: { generation: 1 } });
    const minReady = await send("PATCH", `${base}/agent`, { spec: { minReadySeconds: 3 } }, "application/merge-patch+json");
    expect(minReady.json()).toMatchObject({
      metadata: { generation: 2, annotations: { "deprecated.daemonset.template.generation": "1" } },
    });
    const image = await send(
      "PATCH",
      `${base}/agent`,
      { spec: { template: { spec: { containers: [{ name: "c", image: "i:2" }] } } } },
      "application/strategic-merge-patch+json",
    );
    expect(image.json()).toMatchObject({ metadata: { generation: 3, annotations: { "deprecated.daemonset.template.generation": "2" } } });
    // The user cannot set the templateGeneration.
    const forged = await send(
      "PATCH",
      `${base}/agent`,
      { metadata: { annotations: { "deprecated.daemonset.template.generation": "9" } } },
      "application/merge-patch+json",
    );
    expect(body(forged).metadata.annotations["deprecated.daemonset.template.generation"]).toBe("2");
  });

  it("the selector is immutable; the status subresource keeps the spec", async () => {
    await send("POST", base, ds("imm"));
    const res = await send(
      "PATCH",
      `${base}/imm`,
      { spec: { selector: { matchLabels: { app: "imm", x: "y" } }, template: { metadata: { labels: { app: "imm", x: "y" } } } } },
      "application/merge-patch+json",
    );
    expect(res.status).toBe(422);
    expect(body(res).message).toContain("spec.selector: Invalid value:");
    expect(body(res).message).toContain("field is immutable");
    const cur = body(await send("GET", `${base}/imm`));
    const put = await send("PUT", `${base}/imm/status`, {
      ...cur,
      spec: { ...cur.spec, minReadySeconds: 9 },
      status: { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 1, observedGeneration: 1 },
    });
    expect(put.status).toBe(200);
    expect(body(put).spec.minReadySeconds).toBeUndefined();
    expect(body(put).status).toMatchObject({ desiredNumberScheduled: 2, numberReady: 1 });
  });
});
