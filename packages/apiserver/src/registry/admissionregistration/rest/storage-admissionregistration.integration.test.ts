/**
 * admissionregistration.k8s.io/v1 served over HTTP: discovery, create with upstream's defaulting
 * and validation messages, generation, the status subresource, and Table output with
 * printers.go's columns (also through real kubectl 1.33).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl133, startTestServer, type TestServer } from "../../../server/testing.ts";

const json = { "Content-Type": "application/json" };
const merge = { "Content-Type": "application/merge-patch+json" };
const base = "/apis/admissionregistration.k8s.io/v1";

const policy = (name: string, expression = "object.spec.type != 'NodePort'") => ({
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingAdmissionPolicy",
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["services"] }] },
    validations: [{ expression }],
  },
});

describe("admissionregistration.k8s.io/v1", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("is in discovery with upstream's resources, verbs and categories", async () => {
    const r = await s.request(base);
    expect(r.status).toBe(200);
    const list = r.json() as { resources: { name: string; kind: string; verbs: string[]; categories?: string[] }[] };
    expect(list.resources.map((x) => x.name)).toEqual([
      "mutatingwebhookconfigurations",
      "validatingadmissionpolicies",
      "validatingadmissionpolicies/status",
      "validatingadmissionpolicybindings",
      "validatingwebhookconfigurations",
    ]);
    const vap = list.resources[1]!;
    expect(vap.kind).toBe("ValidatingAdmissionPolicy");
    expect(vap.categories).toEqual(["api-extensions"]);
    expect(vap.verbs).toEqual(["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]);
  });

  it("creates a policy defaulted, with generation 1 and an empty status", async () => {
    const r = await s.request(`${base}/validatingadmissionpolicies`, { method: "POST", headers: json, body: JSON.stringify(policy("p1")) });
    expect(r.status, r.text).toBe(201);
    const got = r.json() as { metadata: { generation: number }; spec: Record<string, unknown>; status: unknown };
    expect(got.metadata.generation).toBe(1);
    expect(got.spec["failurePolicy"]).toBe("Fail");
    expect(got.spec["matchConstraints"]).toMatchObject({ matchPolicy: "Equivalent", namespaceSelector: {}, objectSelector: {} });
    expect(got.status).toEqual({});
  });

  it("refuses an expression that does not compile with upstream's message", async () => {
    const r = await s.request(`${base}/validatingadmissionpolicies`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(policy("bad", "nope == 1")),
    });
    expect(r.status).toBe(422);
    const st = r.json() as { message: string; details: { causes: { field: string }[] } };
    expect(st.message).toContain(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.validations[0].expression: Invalid value: "nope == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to \'nope\'',
    );
    expect(st.details.causes[0]?.field).toBe("spec.validations[0].expression");
  });

  it("bumps the generation on a spec change and keeps the status on the main resource", async () => {
    const r = await s.request(`${base}/validatingadmissionpolicies/p1`, {
      method: "PATCH",
      headers: merge,
      body: JSON.stringify({ spec: { validations: [{ expression: "true" }] }, status: { observedGeneration: 7 } }),
    });
    expect(r.status, r.text).toBe(200);
    const got = r.json() as { metadata: { generation: number }; status: unknown };
    expect(got.metadata.generation).toBe(2);
    // The status is the type-checking controller's (empty until it checked), never the patch's.
    expect(got.status).not.toMatchObject({ observedGeneration: 7 });
  });

  it("writes the status through the status subresource only", async () => {
    const r = await s.request(`${base}/validatingadmissionpolicies/p1/status`, {
      method: "PATCH",
      headers: merge,
      body: JSON.stringify({ spec: { validations: [] }, status: { observedGeneration: 2, typeChecking: {} } }),
    });
    expect(r.status, r.text).toBe(200);
    const got = r.json() as { metadata: { generation: number }; spec: { validations: unknown[] }; status: unknown };
    expect(got.status).toEqual({ observedGeneration: 2, typeChecking: {} });
    expect(got.spec.validations).toEqual([{ expression: "true" }]);
    expect(got.metadata.generation).toBe(2);
  });

  it("validates a binding with upstream's messages", async () => {
    const r = await s.request(`${base}/validatingadmissionpolicybindings`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name: "b1" }, spec: { policyName: "p1" } }),
    });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b1" is invalid: spec.validationActions: Required value: at least one validation action is required',
    );
  });

  it("serves Tables with printers.go's columns", async () => {
    const ok = await s.request(`${base}/validatingadmissionpolicybindings`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name: "b1" }, spec: { policyName: "p1", validationActions: ["Deny"] } }),
    });
    expect(ok.status, ok.text).toBe(201);
    const r = await s.request(`${base}/validatingadmissionpolicybindings`, {
      headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    });
    const t = r.json() as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(["Name", "PolicyName", "ParamRef", "Age"]);
    expect(t.rows[0]?.cells.slice(0, 3)).toEqual(["b1", "p1", "<unset>"]);
  });

  it.skipIf(kubectl133 === "")("kubectl 1.33 lists policies with upstream's columns", async () => {
    const out = await s.kubectl(["get", "validatingadmissionpolicies"]);
    expect(out.stderr).toBe("");
    expect(out.stdout.split("\n")[0]).toMatch(/^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE$/);
    expect(out.stdout).toMatch(/^p1\s+1\s+<unset>\s+\S+$/m);
  });
});
