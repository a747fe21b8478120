/**
 * Upstream test/integration/subresources_test.go (TestApplyScaleSubresource) over HTTP, in part: a
 * CRD whose v1beta1 specReplicasPath is `.spec.replicas[0]` (a field with brackets in its name), a
 * server-side apply through v1 of an object stored as v1beta1, then a merge patch of v1's `/scale`.
 * Its last check, the managedFields entries the scale patch leaves (fieldmanager ScaleHandler): the
 * applier's emptied one, the scaler's and the creator's, in upstream's order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuSubresourcesCRD } from "./fixtures-testing.ts";

const ns = "not-the-default";
const path = (v: string): string => `/apis/mygroup.example.com/${v}/namespaces/${ns}/noxus`;

describe("apiextensions subresources_test TestApplyScaleSubresource", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
    const crd = noxuSubresourcesCRD();
    const v1beta1 = (crd["spec"] as { versions: { subresources: { scale: Record<string, unknown> } }[] }).versions[0]!;
    v1beta1.subresources.scale["specReplicasPath"] = ".spec.replicas[0]";
    await createCRD(s, crd);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("an apply and a scale patch through v1 of an object stored as v1beta1", async () => {
    // NewNoxuSubresourceInstanceWithReplicas(ns, "foo", "v1beta1", "replicas[0]"), by the test's client.
    const created = await s.send("POST", `${path("v1beta1")}?fieldManager=integration.test`, {
      apiVersion: "mygroup.example.com/v1beta1",
      kind: "WishIHadChosenNoxu",
      metadata: { namespace: ns, name: "foo" },
      spec: { num: 10, "replicas[0]": 3 },
      status: { replicas: 7 },
    });
    expect(created.status, created.text).toBe(201);

    const applied = await s.request(`${path("v1")}/foo?fieldManager=applier`, {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: `{"metadata": {"name": "foo"}, "kind": "WishIHadChosenNoxu", "apiVersion": "mygroup.example.com/v1", "spec": {"replicas": 3}}`,
    });
    expect(applied.status, applied.text).toBe(200);
    expect((applied.json() as { metadata: { managedFields: unknown[] } }).metadata.managedFields).toHaveLength(2);

    const scaled = await s.request(`${path("v1")}/foo/scale?fieldManager=scaler`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: `{"spec": {"replicas": 5}}`,
    });
    expect(scaled.status, scaled.text).toBe(200);

    const got = (await s.request(`${path("v1")}/foo`)).json() as {
      spec: Record<string, unknown>;
      metadata: { managedFields: Record<string, unknown>[] };
    };
    // The field ".spec.replicas[0]" (v1beta1's specReplicasPath) and v1's ".spec.replicas" are two fields.
    expect(got.spec).toEqual({ num: 10, "replicas[0]": 3, replicas: 5 });
    // The ScaleHandler moved spec.replicas to the scaler's entry, of the request's version of the
    // parent; the creator's v1beta1 entry keeps its other fields.
    const entries = got.metadata.managedFields;
    const scaleEntry = entries.find((e) => e["manager"] === "scaler");
    expect(scaleEntry).toEqual({
      manager: "scaler",
      operation: "Update",
      apiVersion: "mygroup.example.com/v1",
      subresource: "scale",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:spec": { "f:replicas": {} } },
    });
    expect(entries.find((e) => e["manager"] === "integration.test")).toMatchObject({ apiVersion: "mygroup.example.com/v1beta1" });
    // The applier keeps `{"f:spec":{}}`: structured-merge-diff makes `spec`, which the
    // preserve-unknown-fields root does not declare, a member of the applier's set, so it outlives
    // the stolen spec.replicas (ToFieldSet's visitMapItems).
    expect(entries.map((e) => e["manager"])).toEqual(["applier", "scaler", "integration.test"]);
    expect(entries[0]).toMatchObject({
      manager: "applier",
      operation: "Apply",
      apiVersion: "mygroup.example.com/v1",
      fieldsV1: { "f:spec": {} },
    });
    expect(entries[0]).not.toHaveProperty("subresource");
  });
});
