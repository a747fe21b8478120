import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { applyPatch } from "./apply-patch.ts";
import type { JSONObject } from "./json-value.ts";

const now = new Date("2026-12-02T10:00:00Z");
const live: JSONObject = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", namespace: "default" },
  spec: { ports: [{ port: 80, protocol: "TCP" }], selector: { app: "web" } },
};
const opts = { fieldManager: "kubectl-patch", schemaKind: "Service", now, groupResource: { group: "", resource: "services" }, name: "web" };

function statusOf(f: () => unknown): { code: number; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, message: e.status.message };
    throw e;
  }
  throw new Error("did not throw");
}

describe("applyPatch", () => {
  it.each<[string, string, (o: JSONObject) => unknown, unknown]>([
    [
      "application/json-patch+json",
      '[{"op":"replace","path":"/spec/selector/app","value":"db"}]',
      (o) => (o.spec as JSONObject).selector,
      { app: "db" },
    ],
    ["application/merge-patch+json", '{"spec":{"ports":[{"port":81}]}}', (o) => (o.spec as JSONObject).ports, [{ port: 81 }]],
    [
      "application/strategic-merge-patch+json",
      '{"spec":{"ports":[{"port":81}]}}',
      (o) => ((o.spec as JSONObject).ports as JSONObject[]).length,
      2,
    ],
    [
      "application/merge-patch+json; charset=utf-8",
      '{"metadata":{"labels":{"a":"b"}}}',
      (o) => (o.metadata as JSONObject).labels,
      { a: "b" },
    ],
  ])("%s", (type, body, pick, want) => {
    const r = applyPatch(type, live, body, opts);
    expect(pick(r.object)).toEqual(want);
    expect(r.created).toBe(false);
    const mf = (r.object.metadata as JSONObject).managedFields as JSONObject[];
    expect(mf.map((m) => [m.manager, m.operation, m.apiVersion])).toEqual([["kubectl-patch", "Update", "v1"]]);
  });

  it("server-side apply from YAML creates when there is no object", () => {
    const body = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n";
    const r = applyPatch("application/apply-patch+yaml", undefined, body, { ...opts, fieldManager: "kubectl" });
    expect(r.created).toBe(true);
    expect(((r.object.metadata as JSONObject).managedFields as JSONObject[])[0]).toMatchObject({ manager: "kubectl", operation: "Apply" });
  });

  it("reads apply YAML as YAML 1.1, like sigs.k8s.io/yaml", () => {
    const body = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  publishNotReadyAddresses: yes\n";
    const r = applyPatch("application/apply-patch+yaml", live, body, { ...opts, fieldManager: "k" });
    expect((r.object.spec as JSONObject).publishNotReadyAddresses).toBe(true);
  });

  it("server-side apply accepts a JSON body", () => {
    const r = applyPatch(
      "application/apply-patch+yaml",
      live,
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"type":"NodePort"}}',
      { ...opts, fieldManager: "k" },
    );
    expect((r.object.spec as JSONObject).type).toBe("NodePort");
  });

  it.each<[string, string, JSONObject | undefined, number, string]>([
    [
      "text/plain",
      "{}",
      live,
      415,
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml",
    ],
    ["application/strategic-merge-patch+json", "{", live, 400, "unexpected end of JSON input"],
    ["application/merge-patch+json", "xyz", live, 400, "invalid character 'x' looking for beginning of value"],
    ["application/apply-patch+yaml", "a: [", live, 400, "error decoding YAML: "],
    ["application/merge-patch+json", "{}", undefined, 404, 'services "web" not found'],
  ])("%s %j -> %s", (type, body, cur, code, message) => {
    const s = statusOf(() => applyPatch(type, cur, body, opts));
    expect(s.code).toBe(code);
    expect(s.message.startsWith(message)).toBe(true);
  });
});

describe("kubectl apply --server-side after client-side apply (csaupgrade)", () => {
  it("takes the managedFields kubectl writes with a JSON patch, then applies without conflict", () => {
    const now2 = new Date("2026-12-02T11:00:00Z");
    // 1. kubectl apply (client-side) created the object: an Update entry for kubectl-client-side-apply.
    const created = applyPatch(
      "application/merge-patch+json",
      { ...live, metadata: { ...(live.metadata as JSONObject), resourceVersion: "5" } },
      '{"spec":{"ports":[{"port":80,"protocol":"TCP","targetPort":8080}]}}',
      { ...opts, fieldManager: "kubectl-client-side-apply" },
    ).object;
    const csa = ((created.metadata as JSONObject).managedFields as JSONObject[])[0] as JSONObject;
    expect(csa.manager).toBe("kubectl-client-side-apply");
    // 2. kubectl moves those fields to its Apply manager with a JSON patch guarded by resourceVersion.
    const upgraded = { ...csa, manager: "kubectl", operation: "Apply" };
    const jsonPatch = JSON.stringify([
      { op: "test", path: "/metadata/resourceVersion", value: "5" },
      { op: "replace", path: "/metadata/managedFields", value: [upgraded] },
    ]);
    const migrated = applyPatch("application/json-patch+json", created, jsonPatch, { ...opts, fieldManager: "kubectl" }).object;
    expect((migrated.metadata as JSONObject).managedFields).toEqual([upgraded]);
    // 3. The server-side apply of a changed targetPort now belongs to kubectl: no conflict.
    const applied = applyPatch(
      "application/apply-patch+yaml",
      migrated,
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80,"targetPort":9090}],"selector":{"app":"web"}}}',
      { ...opts, fieldManager: "kubectl", now: now2 },
    ).object;
    expect(((applied.spec as JSONObject).ports as JSONObject[])[0]?.targetPort).toBe(9090);
    expect(((applied.metadata as JSONObject).managedFields as JSONObject[]).map((m) => m.manager)).toEqual(["kubectl"]);
  });
});
