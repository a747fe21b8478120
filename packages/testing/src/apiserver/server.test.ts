import { afterEach, describe, expect, it } from "vitest";
import { expired, once } from "../index.ts";
import { FakeAPIServer, startFakeAPIServer, type TableBuilder } from "./server.ts";

let api: FakeAPIServer | undefined;
afterEach(async () => api?.stop());

const svc = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace: "default", labels },
  spec: { clusterIP: "10.0.0.1" },
});

// Decoded JSON bodies, read field by field in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON is untyped; the assertions check its shape
type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${api!.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Reads `n` lines of a watch stream. */
async function watchLines(path: string, n: number, during: () => Promise<unknown> = async () => {}): Promise<Json[]> {
  const res = await fetch(`${api!.url}${path}`);
  const reader = res.body!.getReader();
  await during();
  let text = "";
  while (text.split("\n").length <= n) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`watch ended after ${JSON.stringify(text)}`);
    text += new TextDecoder().decode(chunk.value);
  }
  await reader.cancel();
  return text
    .split("\n")
    .slice(0, n)
    .map((l) => JSON.parse(l) as Json);
}

describe("FakeAPIServer", () => {
  it("serves discovery for its resources", async () => {
    api = await startFakeAPIServer();
    expect((await call("GET", "/apis")).body.groups.map((g: { name: string }) => g.name)).toContain("networking.k8s.io");
    const core = (await call("GET", "/api/v1")).body;
    expect(core.resources.find((r: { name: string }) => r.name === "services")).toMatchObject({
      kind: "Service",
      namespaced: true,
      shortNames: ["svc"],
    });
  });

  it("creates, conflicts on a stale resourceVersion, lists with a label selector", async () => {
    api = await startFakeAPIServer({ objects: [svc("a", { app: "x" })] });
    expect((await call("POST", "/api/v1/namespaces/default/services", svc("b"))).status).toBe(201);
    expect((await call("POST", "/api/v1/namespaces/default/services", svc("b"))).body).toMatchObject({
      code: 409,
      reason: "AlreadyExists",
      message: 'services "b" already exists',
    });
    const a = (await call("GET", "/api/v1/namespaces/default/services/a")).body;
    const stale = { ...a, metadata: { ...a.metadata, resourceVersion: "1" } };
    expect((await call("PUT", "/api/v1/namespaces/default/services/a", { ...a, spec: { clusterIP: "10.0.0.2" } })).status).toBe(200);
    expect((await call("PUT", "/api/v1/namespaces/default/services/a", stale)).body).toMatchObject({ code: 409, reason: "Conflict" });
    const list = (await call("GET", "/api/v1/services?labelSelector=app%3Dx")).body;
    expect(list.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(["a"]);
    expect(api.writes.map((w) => `${w.verb} ${w.name ?? ""}`)).toEqual(["create ", "create ", "update a", "update a"]);
  });

  it("replays what came after a watch's resourceVersion, then fans out new events", async () => {
    api = await startFakeAPIServer({ objects: [svc("a")] });
    const rv = (await call("GET", "/api/v1/services")).body.metadata.resourceVersion;
    await call("POST", "/api/v1/namespaces/default/services", svc("b"));
    const events = await watchLines(`/api/v1/services?watch=true&resourceVersion=${rv}`, 2, () =>
      call("DELETE", "/api/v1/namespaces/default/services/a"),
    );
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["ADDED b", "DELETED a"]);
  });

  it("answers from a reactor first, once", async () => {
    api = await startFakeAPIServer({ objects: [svc("a")] });
    api.prependReactor(
      "watch",
      "services",
      once(() => ({ events: [{ type: "ERROR", object: expired() }] })),
    );
    expect(await watchLines("/api/v1/services?watch=1&resourceVersion=1", 1)).toEqual([
      { type: "ERROR", object: expect.objectContaining({ code: 410, reason: "Expired" }) },
    ]);
    expect((await watchLines("/api/v1/services?watch=1", 1))[0]).toMatchObject({ type: "ADDED", object: { metadata: { name: "a" } } });
  });

  it("renders Tables with the builder it was given, plain JSON without one", async () => {
    const table: TableBuilder = (r, objs, opts) => ({
      kind: "Table",
      rows: objs.map((o) => ({ cells: [o.metadata?.name, r.kind] })),
      metadata: opts.listMeta,
    });
    api = await startFakeAPIServer({ objects: [svc("a")], table });
    const accept = { accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json" };
    expect((await call("GET", "/api/v1/namespaces/default/services", undefined, accept)).body).toMatchObject({
      kind: "Table",
      rows: [{ cells: ["a", "Service"] }],
    });
    await api.stop();
    api = await startFakeAPIServer({ objects: [svc("a")] });
    expect((await call("GET", "/api/v1/namespaces/default/services", undefined, accept)).body.kind).toBe("ServiceList");
  });

  it("server-side apply: another field manager conflicts unless forced", async () => {
    api = await startFakeAPIServer();
    const apply = (manager: string, force = false) =>
      call("PATCH", `/api/v1/namespaces/default/services/a?fieldManager=${manager}&force=${force}`, svc("a"), {
        "content-type": "application/apply-patch+yaml",
      });
    expect((await apply("kubectl")).status).toBe(201);
    expect((await apply("other")).body).toMatchObject({
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec',
    });
    expect((await apply("other", true)).status).toBe(200);
  });
});
