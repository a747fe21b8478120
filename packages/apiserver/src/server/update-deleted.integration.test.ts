/**
 * Writing a copy of a deleted object, on every write path and on the memory and SQLite backends: a
 * PUT body's uid is a precondition (upstream rest.defaultUpdatedObjectInfo.Preconditions), and the
 * store checks it against the zero object when the key is gone (etcd3 store.GuaranteedUpdate), so
 * the PUT is a 409 Conflict and never re-creates the object; patches carry no precondition and are
 * 404 (patcher.applyPatch's createNewObject), server-side apply creates (applyPatcher).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

type Obj = { metadata: { name: string; uid: string; resourceVersion: string }; spec: { clusterIP?: string } };

const svcPath = "/api/v1/namespaces/default/services";
const conflictOn = (resource: string, name: string, key: string, uid: string): string =>
  `Operation cannot be fulfilled on ${resource} "${name}": StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: `;

describe.each(["memory", "sqlite"] as const)("a write of a deleted object's copy on %s", (backend) => {
  let s: TestServer;
  const send = (method: string, path: string, body: unknown, contentType = "application/json") =>
    s.request(path, { method, headers: { "Content-Type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });

  /** Creates a Service, reads it and deletes it: the copy a racing read-modify-write client holds. */
  async function readThenDelete(name: string, spec: Record<string, unknown> = { ports: [{ port: 80 }] }): Promise<Obj> {
    expect((await send("POST", svcPath, { metadata: { name }, spec })).status).toBe(201);
    const read = (await s.request(`${svcPath}/${name}`)).json() as Obj;
    expect((await s.request(`${svcPath}/${name}`, { method: "DELETE" })).status).toBe(200);
    return read;
  }

  const dir = mkdtempSync(join(tmpdir(), "servicenet-update-deleted-"));
  beforeAll(async () => {
    s = await startTestServer(backend === "sqlite" ? { storage: { backend: "sqlite", path: join(dir, "state.db") } } : {});
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("PUT of the copy is 409 Conflict with upstream's precondition message, and nothing is re-created", async () => {
    const read = await readThenDelete("put-gone");
    const r = await send("PUT", `${svcPath}/put-gone`, read);
    expect(r.status).toBe(409);
    const status = r.json() as { reason: string; message: string; details: unknown };
    expect(status.reason).toBe("Conflict");
    expect(status.message).toBe(conflictOn("services", "put-gone", "/registry/services/specs/default/put-gone", read.metadata.uid));
    expect(status.details).toMatchObject({ name: "put-gone", kind: "services" });
    expect((await s.request(`${svcPath}/put-gone`)).status).toBe(404);
  });

  it("PUT of the copy is 409, not 422, when its ClusterIP was taken meanwhile", async () => {
    const read = await readThenDelete("ip-gone");
    const clusterIP = read.spec.clusterIP ?? "";
    expect((await send("POST", svcPath, { metadata: { name: "ip-taker" }, spec: { clusterIP, ports: [{ port: 80 }] } })).status).toBe(201);
    const r = await send("PUT", `${svcPath}/ip-gone`, read);
    expect(r.status).toBe(409);
    expect((r.json() as { message: string }).message).toBe(
      conflictOn("services", "ip-gone", "/registry/services/specs/default/ip-gone", read.metadata.uid),
    );
  });

  it("PUT of the status subresource is 409 too", async () => {
    const read = await readThenDelete("status-gone");
    const r = await send("PUT", `${svcPath}/status-gone/status`, read);
    expect(r.status).toBe(409);
    expect((r.json() as { reason: string }).reason).toBe("Conflict");
    expect((await s.request(`${svcPath}/status-gone`)).status).toBe(404);
  });

  it("PUT on a kind that never creates on update is 409 as well (the precondition comes before NotFound)", async () => {
    const path = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";
    const body = { metadata: { name: "es-gone" }, addressType: "IPv4", endpoints: [] };
    expect((await send("POST", path, body)).status).toBe(201);
    const read = (await s.request(`${path}/es-gone`)).json() as Obj;
    expect((await s.request(`${path}/es-gone`, { method: "DELETE" })).status).toBe(200);
    const r = await send("PUT", `${path}/es-gone`, read);
    expect(r.status).toBe(409);
    expect((r.json() as { message: string }).message).toBe(
      conflictOn("endpointslices.discovery.k8s.io", "es-gone", "/registry/endpointslices/default/es-gone", read.metadata.uid),
    );
  });

  it("PUT without a uid (no precondition) creates, as upstream's AllowCreateOnUpdate Services do", async () => {
    const read = await readThenDelete("put-no-uid");
    const { uid: _uid, ...meta } = read.metadata;
    const r = await send("PUT", `${svcPath}/put-no-uid`, { ...read, metadata: meta });
    expect(r.status).toBe(201);
    expect((r.json() as Obj).metadata.uid).not.toBe(read.metadata.uid);
  });

  it.each([
    ["merge", "application/merge-patch+json", '{"metadata":{"labels":{"a":"b"}}}'],
    ["strategic merge", "application/strategic-merge-patch+json", '{"metadata":{"labels":{"a":"b"}}}'],
    ["JSON", "application/json-patch+json", '[{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]'],
  ])("a %s patch of a deleted object is 404", async (_name, contentType, patch) => {
    const name = `patch-${contentType.split("/")[1]!.split("-")[0]!}`;
    await readThenDelete(name);
    const r = await send("PATCH", `${svcPath}/${name}`, patch, contentType);
    expect(r.status).toBe(404);
    expect((r.json() as { message: string }).message).toBe(`services "${name}" not found`);
  });

  it("server-side apply of a deleted object creates a new one", async () => {
    const read = await readThenDelete("apply-gone");
    const r = await send(
      "PATCH",
      `${svcPath}/apply-gone?fieldManager=test`,
      { apiVersion: "v1", kind: "Service", metadata: { name: "apply-gone" }, spec: { ports: [{ port: 80 }] } },
      "application/apply-patch+yaml",
    );
    expect(r.status).toBe(201);
    expect((r.json() as Obj).metadata.uid).not.toBe(read.metadata.uid);
  });
});
