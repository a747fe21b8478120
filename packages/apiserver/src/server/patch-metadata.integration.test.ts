/**
 * Patches that touch metadata, over HTTP: removing metadata or the name is upstream's 400 (checkName
 * in endpoints/handlers/rest.go), never a 200 that drops labels, annotations and finalizers; uid,
 * creationTimestamp and deletion fields survive; an apply that creates with a uid is a 409.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const base = "/api/v1/namespaces/default/services";
const types = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
} as const;
type Meta = {
  name?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
};
type Status = { code: number; reason: string; message: string; details?: Record<string, unknown> };

describe("PATCH of metadata (upstream's name, namespace and uid checks)", () => {
  let s: TestServer;
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = async (): Promise<{ name: string; meta: Meta }> => {
    const name = `meta-${n++}`;
    const body = {
      metadata: { name, labels: { app: "web" }, annotations: { note: "keep" }, finalizers: ["example.com/keep"] },
      spec: { ports: [{ port: 80 }] },
    };
    const r = await s.request(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(r.status).toBe(201);
    return { name, meta: (r.json() as { metadata: Meta }).metadata };
  };
  const patch = (name: string, type: keyof typeof types, body: string, query = "") =>
    s.request(`${base}/${name}${query}`, { method: "PATCH", headers: { "Content-Type": types[type] }, body });
  const stored = async (name: string): Promise<Meta> => ((await s.request(`${base}/${name}`)).json() as { metadata: Meta }).metadata;

  const nameMismatch = (got: string, want: string) => ({
    code: 400,
    reason: "BadRequest",
    message: `the name of the object (${got}) does not match the name on the URL (${want})`,
  });
  const rejected: [string, keyof typeof types, string, (name: string) => Partial<Status>][] = [
    ["JSON patch remove /metadata", "json", '[{"op":"remove","path":"/metadata"}]', (x) => nameMismatch("", x)],
    ["JSON patch remove /metadata/name", "json", '[{"op":"remove","path":"/metadata/name"}]', (x) => nameMismatch("", x)],
    ["merge patch metadata: null", "merge", '{"metadata":null}', (x) => nameMismatch("", x)],
    ["strategic merge patch metadata: null", "strategic", '{"metadata":null}', (x) => nameMismatch("", x)],
    ["strategic merge patch $patch: replace of metadata", "strategic", '{"metadata":{"$patch":"replace"}}', (x) => nameMismatch("", x)],
    ["merge patch renaming the object", "merge", '{"metadata":{"name":"other"}}', (x) => nameMismatch("other", x)],
    [
      "merge patch moving the object",
      "merge",
      '{"metadata":{"namespace":"kube-system"}}',
      () => ({
        code: 400,
        reason: "BadRequest",
        message: "the namespace of the provided object does not match the namespace sent on the request",
      }),
    ],
    [
      "merge patch changing the uid",
      "merge",
      '{"metadata":{"uid":"other"}}',
      (x) => ({
        code: 422,
        reason: "Invalid",
        message: `Service "${x}" is invalid: metadata.uid: Invalid value: "other": field is immutable`,
      }),
    ],
  ];
  it.each(rejected)("%s is rejected and changes nothing", async (_label, type, body, want) => {
    const { name, meta } = await create();
    const r = await patch(name, type, body);
    expect(r.status).toBe(want(name).code);
    expect(r.json()).toMatchObject({ kind: "Status", status: "Failure", ...want(name) });
    expect(await stored(name)).toEqual(meta);
  });

  it("a patch that drops the uid keeps it; creationTimestamp cannot be changed", async () => {
    const { name, meta } = await create();
    expect(
      (await patch(name, "merge", '{"metadata":{"uid":null,"creationTimestamp":"2020-01-01T00:00:00Z","labels":{"extra":"1"}}}')).status,
    ).toBe(200);
    const now = await stored(name);
    expect(now).toMatchObject({
      uid: meta.uid,
      creationTimestamp: meta.creationTimestamp,
      labels: { app: "web", extra: "1" },
      finalizers: ["example.com/keep"],
    });
  });

  it("an explicit replace of metadata keeping the name is allowed (labels and finalizers go, uid stays)", async () => {
    const { name, meta } = await create();
    const r = await patch(name, "json", JSON.stringify([{ op: "replace", path: "/metadata", value: { name } }]));
    expect(r.status).toBe(200);
    const now = await stored(name);
    expect(now.labels).toBeUndefined();
    expect(now.finalizers).toBeUndefined();
    expect(now).toMatchObject({ name, uid: meta.uid, creationTimestamp: meta.creationTimestamp });
  });

  it("a deleting object keeps deletionTimestamp and deletionGracePeriodSeconds through a patch", async () => {
    const { name } = await create();
    expect((await s.request(`${base}/${name}`, { method: "DELETE" })).status).toBe(200);
    const deleting = await stored(name);
    const r = await patch(
      name,
      "json",
      '[{"op":"remove","path":"/metadata/deletionGracePeriodSeconds"},{"op":"remove","path":"/metadata/deletionTimestamp"},{"op":"add","path":"/metadata/labels/x","value":"y"}]',
    );
    expect(r.status).toBe(200);
    expect(await stored(name)).toMatchObject({
      deletionTimestamp: deleting.deletionTimestamp,
      deletionGracePeriodSeconds: 0,
      labels: { app: "web", x: "y" },
    });
  });

  it("an apply with metadata: null keeps the live metadata", async () => {
    const { name, meta } = await create();
    const r = await patch(
      name,
      "apply",
      "apiVersion: v1\nkind: Service\nmetadata: null\nspec:\n  ports:\n  - port: 80\n",
      "?fieldManager=tool",
    );
    expect(r.status).toBe(200);
    expect(await stored(name)).toMatchObject({
      name,
      uid: meta.uid,
      labels: meta.labels,
      annotations: meta.annotations,
      finalizers: meta.finalizers,
    });
  });

  it("a PUT body must carry the URL's name and namespace too (update.go checkName), and its uid is a precondition", async () => {
    const { name, meta } = await create();
    const put = (metadata: Record<string, unknown>) =>
      s.request(`${base}/${name}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ metadata, spec: { ports: [{ port: 80 }] } }),
      });
    expect((await put({})).json()).toMatchObject(nameMismatch("", name));
    expect((await put({ name, namespace: "kube-system" })).json()).toMatchObject({
      code: 400,
      message: "the namespace of the object (kube-system) does not match the namespace on the request (default)",
    });
    expect(await stored(name)).toEqual(meta);
    // A uid in a PUT body is a storage precondition (a patch's changed uid is the 422 above).
    const other = await put({ name, uid: "other" });
    expect(other.status).toBe(409);
    expect(other.json()).toMatchObject({
      reason: "Conflict",
      message: `Operation cannot be fulfilled on services "${name}": StorageError: invalid object, Code: 4, Key: /registry/services/specs/default/${name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${meta.uid}`,
    });
    expect((await put({ name, uid: meta.uid, resourceVersion: meta.resourceVersion })).status).toBe(200);
  });

  it("an apply that would create an object without a name is a 400, with a uid a 409", async () => {
    const noName = await patch(
      "apply-new",
      "apply",
      "apiVersion: v1\nkind: Service\nspec:\n  ports:\n  - port: 80\n",
      "?fieldManager=tool",
    );
    expect(noName.json()).toMatchObject(nameMismatch("", "apply-new"));
    const withUID = await patch(
      "apply-new",
      "apply",
      "apiVersion: v1\nkind: Service\nmetadata:\n  name: apply-new\n  uid: abc\nspec:\n  ports:\n  - port: 80\n",
      "?fieldManager=tool",
    );
    expect(withUID.status).toBe(409);
    expect(withUID.json()).toMatchObject({
      reason: "Conflict",
      message:
        'Operation cannot be fulfilled on services "apply-new": uid mismatch: the provided object specified uid abc, and no existing object was found',
      details: { name: "apply-new", kind: "services" },
    });
    expect((await s.request(`${base}/apply-new`)).status).toBe(404);
  });
});
