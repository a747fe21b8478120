import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { applyServerSideApply } from "./server-side-apply.ts";
import { updateManagedFields } from "./managed-fields.ts";
import type { JSONObject } from "./json-value.ts";

const now = new Date("2026-12-02T10:00:00.123Z");
const later = new Date("2026-12-02T11:00:00Z");

const config = (ports: JSONObject[], labels: JSONObject = { app: "web" }): JSONObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", labels },
  spec: { selector: { app: "web" }, ports },
});

const spec = (o: JSONObject): JSONObject => o.spec as JSONObject;

describe("applyServerSideApply", () => {
  it("creates with an Apply entry in FieldsV1", () => {
    const { object, managedFields } = applyServerSideApply(undefined, config([{ port: 80, targetPort: 8080 }]), {
      fieldManager: "kubectl",
      now,
    });
    expect(managedFields).toEqual([
      {
        manager: "kubectl",
        operation: "Apply",
        apiVersion: "v1",
        time: "2026-12-02T10:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": { "f:labels": { "f:app": {} } },
          "f:spec": {
            "f:ports": { 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:port": {}, "f:targetPort": {} } },
            "f:selector": {},
          },
        },
      },
    ]);
    expect((object.metadata as JSONObject).managedFields).toEqual(managedFields);
  });

  it("prunes fields the manager applied before and no longer applies", () => {
    const first = applyServerSideApply(undefined, config([{ port: 80 }, { port: 443 }], { app: "web", tier: "fe" }), {
      fieldManager: "kubectl",
      now,
    }).object;
    const second = applyServerSideApply(first, config([{ port: 80 }]), { fieldManager: "kubectl", now: later }).object;
    expect(spec(second).ports).toEqual([{ port: 80 }]);
    expect((second.metadata as JSONObject).labels).toEqual({ app: "web" });
  });

  it("does not prune a list whose own path the manager owned as an Update member", () => {
    const csa = updateManagedFields(
      undefined,
      config([
        { port: 80, protocol: "TCP" },
        { port: 443, protocol: "TCP" },
      ]),
      "kubectl-client-side-apply",
      "Update",
      "v1",
      now,
    );
    // kubectl's csaupgrade hands the Update entry (with "f:ports": {".": {}}) to the applier unchanged.
    const mf = ((csa.metadata as JSONObject).managedFields as JSONObject[]).map((m) => ({ ...m, manager: "kubectl", operation: "Apply" }));
    const migrated = { ...csa, metadata: { ...(csa.metadata as JSONObject), managedFields: mf } };
    const out = applyServerSideApply(migrated, config([{ port: 80 }]), { fieldManager: "kubectl", now }).object;
    // 443 is gone; 80's protocol is pruned too (the applier owned it and dropped it), as upstream does before defaulting restores TCP.
    expect(spec(out).ports).toEqual([{ port: 80 }]);
  });

  it("keeps a dropped field another manager also owns", () => {
    const a = applyServerSideApply(undefined, config([{ port: 80 }], { app: "web", tier: "fe" }), { fieldManager: "a", now }).object;
    const b = applyServerSideApply(
      a,
      { apiVersion: "v1", kind: "Service", metadata: { name: "web", labels: { tier: "fe" } } },
      { fieldManager: "b", now },
    ).object;
    const c = applyServerSideApply(b, config([{ port: 80 }]), { fieldManager: "a", now }).object;
    expect((c.metadata as JSONObject).labels).toEqual({ app: "web", tier: "fe" });
  });

  it("merges ports by port+protocol, defaulting protocol to TCP", () => {
    const live = {
      ...config([{ port: 80, protocol: "TCP", targetPort: 8080, name: "http" }]),
      spec: { ...spec(config([])), ports: [{ port: 80, protocol: "TCP", targetPort: 8080, name: "http" }], type: "ClusterIP" },
    };
    const out = applyServerSideApply(
      live,
      config([
        { port: 80, targetPort: 9090 },
        { port: 53, protocol: "UDP" },
      ]),
      { fieldManager: "m", now },
    ).object;
    expect(spec(out).ports).toEqual([
      { port: 80, protocol: "TCP", targetPort: 9090, name: "http" },
      { port: 53, protocol: "UDP" },
    ]);
    expect(spec(out).type).toBe("ClusterIP");
  });

  const clientSideCreated = (): JSONObject =>
    updateManagedFields(
      undefined,
      config([{ port: 80, protocol: "TCP", targetPort: 8080 }]),
      "kubectl-client-side-apply",
      "Update",
      "v1",
      now,
    );

  it("conflicts with an Update manager that owns the field, with upstream's text", () => {
    let err: unknown;
    try {
      applyServerSideApply(clientSideCreated(), config([{ port: 80, targetPort: 9090 }]), { fieldManager: "kubectl", now });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    const s = (err as StatusError).status;
    expect(s.code).toBe(409);
    expect(s.reason).toBe("Conflict");
    expect(s.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.ports[port=80,protocol="TCP"].targetPort',
    );
    expect(s.details?.causes).toEqual([
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "kubectl-client-side-apply" using v1',
        field: '.spec.ports[port=80,protocol="TCP"].targetPort',
      },
    ]);
  });

  it("lists several conflicts grouped by manager", () => {
    expect(() =>
      applyServerSideApply(clientSideCreated(), config([{ port: 80, targetPort: 9090 }], { app: "api" }), { fieldManager: "kubectl", now }),
    ).toThrow(
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using v1:\n- .metadata.labels.app\n- .spec.ports[port=80,protocol="TCP"].targetPort',
    );
  });

  it("does not conflict when the applied value equals the live one, and shares ownership", () => {
    const { managedFields } = applyServerSideApply(clientSideCreated(), config([{ port: 80, targetPort: 8080 }]), {
      fieldManager: "kubectl",
      now,
    });
    expect(managedFields.map((m) => `${m.manager}/${m.operation}`)).toEqual(["kubectl/Apply", "kubectl-client-side-apply/Update"]);
    expect(JSON.stringify(managedFields[1]?.fieldsV1)).toContain("f:targetPort");
  });

  it("with force takes the field over", () => {
    const { object, managedFields } = applyServerSideApply(clientSideCreated(), config([{ port: 80, targetPort: 9090 }]), {
      fieldManager: "kubectl",
      force: true,
      now,
    });
    expect((spec(object).ports as JSONObject[])[0]?.targetPort).toBe(9090);
    const csa = managedFields.find((m) => m.manager === "kubectl-client-side-apply");
    expect(JSON.stringify(csa?.fieldsV1)).not.toContain("f:targetPort");
  });

  it.each<[string, unknown, string, number]>([
    ["missing field manager", config([]), "", 422],
    ["managedFields in the configuration", { ...config([]), metadata: { name: "web", managedFields: [] } }, "m", 400],
    ["a list", [1], "m", 400],
  ])("rejects %s", (_n, applied, fieldManager, code) => {
    try {
      applyServerSideApply(undefined, applied, { fieldManager, now });
      expect.unreachable();
    } catch (e) {
      expect((e as StatusError).code).toBe(code);
    }
  });
});

describe("reset fields", () => {
  const withStatus = { ...config([{ port: 80 }]), status: { loadBalancer: {}, conditions: [{ type: "X", status: "True" }] } };
  it("the main resource never owns status", () => {
    const { managedFields } = applyServerSideApply(undefined, withStatus, { fieldManager: "m", now });
    expect(JSON.stringify(managedFields)).not.toContain("f:status");
    const created = updateManagedFields(undefined, withStatus, "c", "Update", "v1", now);
    expect(JSON.stringify((created.metadata as JSONObject).managedFields)).not.toContain("f:status");
  });
  it("the status subresource owns status, not spec", () => {
    const { managedFields } = applyServerSideApply(undefined, withStatus, { fieldManager: "m", now, subresource: "status" });
    const text = JSON.stringify(managedFields);
    expect(text).toContain('"f:status"');
    expect(text).not.toContain('"f:spec"');
    expect(managedFields[0]?.subresource).toBe("status");
  });
});

describe("updateManagedFields", () => {
  it("records a create as upstream does ('.' for new maps and lists, not for spec)", () => {
    const obj = config([{ port: 80, protocol: "TCP" }]);
    (obj.metadata as JSONObject).annotations = { note: "x" };
    const out = updateManagedFields(undefined, obj, "kubectl-create", "Update", "v1", now);
    expect((out.metadata as JSONObject).managedFields).toEqual([
      {
        manager: "kubectl-create",
        operation: "Update",
        apiVersion: "v1",
        time: "2026-12-02T10:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": { "f:annotations": { ".": {}, "f:note": {} }, "f:labels": { ".": {}, "f:app": {} } },
          "f:spec": {
            "f:ports": { ".": {}, 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:port": {}, "f:protocol": {} } },
            "f:selector": {},
          },
        },
      },
    ]);
  });

  it("moves a changed field to the updater and drops removed fields", () => {
    const created = updateManagedFields(undefined, config([{ port: 80, protocol: "TCP" }]), "a", "Update", "v1", now);
    const changed = {
      ...created,
      metadata: { ...(created.metadata as JSONObject), labels: { app: "db" } },
      spec: { ports: [{ port: 80, protocol: "TCP" }] },
    };
    const out = updateManagedFields(created, changed, "b", "Update", "v1", later);
    const mf = (out.metadata as JSONObject).managedFields as JSONObject[];
    const a = JSON.stringify(mf.find((m) => m.manager === "a"));
    const b = JSON.stringify(mf.find((m) => m.manager === "b"));
    expect(a).not.toContain("f:app");
    expect(a).not.toContain("f:selector");
    expect(b).toContain("f:app");
    expect(mf.find((m) => m.manager === "b")?.time).toBe("2026-12-02T11:00:00Z");
  });

  it("metadata: null keeps the live metadata (a null map merges as absent); a null scalar removes", () => {
    const live = applyServerSideApply(undefined, config([{ port: 80 }]), { fieldManager: "other", now }).object;
    (live.metadata as JSONObject).finalizers = ["example.com/keep"];
    const applied: JSONObject = {
      apiVersion: "v1",
      kind: "Service",
      metadata: null,
      spec: { ports: [{ port: 80 }], sessionAffinity: null },
    };
    const { object } = applyServerSideApply(live, applied, { fieldManager: "tool", now: later });
    expect(object.metadata).toMatchObject({ name: "web", labels: { app: "web" }, finalizers: ["example.com/keep"] });
    expect(spec(object).sessionAffinity).toBeUndefined();
  });
});
