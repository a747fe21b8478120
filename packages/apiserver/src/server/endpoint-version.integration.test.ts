/**
 * The versions of a built-in resource share its objects: a PATCH through one version applies to
 * an object another version wrote, and admission sees the old object in the requested version
 * (upstream decodes the stored object into the endpoint's version: handlers/patch.go applyPatch,
 * update.go and delete.go's admission attributes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startTestServer, type TestServer } from "./testing.ts";

const base = "/apis/networking.k8s.io";
const arv1 = "/apis/admissionregistration.k8s.io/v1";

describe("a stored object through another version's endpoint", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ runtimeConfig: "networking.k8s.io/v1beta1=true" });
    // A policy that warns with the old object's apiVersion of every IPAddress update and delete.
    const rule = { operations: ["UPDATE", "DELETE"], apiGroups: ["networking.k8s.io"], apiVersions: ["*"], resources: ["ipaddresses"] };
    const policy = {
      metadata: { name: "old-version" },
      spec: {
        matchConstraints: { resourceRules: [rule] },
        validations: [{ expression: "false", messageExpression: `"old=" + oldObject.apiVersion` }],
      },
    };
    expect((await s.send("POST", `${arv1}/validatingadmissionpolicies`, policy)).status).toBe(201);
    const binding = { metadata: { name: "old-version" }, spec: { policyName: "old-version", validationActions: ["Warn"] } };
    expect((await s.send("POST", `${arv1}/validatingadmissionpolicybindings`, binding)).status).toBe(201);
  });
  afterAll(async () => s?.close());

  it("is patched, updated and deleted in the requested version, as admission sees it", async () => {
    const ip = { metadata: { name: "192.168.9.9" }, spec: { parentRef: { resource: "services", name: "x", namespace: "ns" } } };
    expect((await s.send("POST", `${base}/v1/ipaddresses`, ip)).status).toBe(201);
    const path = (v: string) => `${base}/${v}/ipaddresses/192.168.9.9`;
    // The binding is in effect once a patch through v1 warns.
    await eventually(
      async () => {
        const r = await s.send("PATCH", path("v1"), { metadata: { labels: { a: "a" } } }, "application/merge-patch+json");
        return (r.headers.get("warning") ?? "").includes("old=");
      },
      { what: "the policy in effect" },
    );
    // A patch through v1beta1 of the object v1 wrote.
    const patched = await s.send("PATCH", path("v1beta1"), { metadata: { labels: { a: "b" } } }, "application/merge-patch+json");
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("warning")).toContain("old=networking.k8s.io/v1beta1");
    expect(patched.json()).toMatchObject({ apiVersion: "networking.k8s.io/v1beta1", metadata: { labels: { a: "b" } } });
    const got = (await s.send("GET", path("v1"))).json() as Record<string, unknown>;
    const put = await s.send("PUT", path("v1"), { ...got, metadata: { ...(got["metadata"] as object), labels: { c: "d" } } });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.get("warning")).toContain("old=networking.k8s.io/v1");
    expect(put.headers.get("warning")).not.toContain("old=networking.k8s.io/v1beta1");
    const del = await s.send("DELETE", path("v1beta1"));
    expect(del.status, del.text).toBe(200);
    expect(del.headers.get("warning")).toContain("old=networking.k8s.io/v1beta1");
  });
});
