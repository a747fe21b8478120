/** Upstream's request timeout filter: a request stuck in storage (a frozen etcd) gets a 504 Status; watches are exempt. */
import { afterEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../storage/index.ts";
import { startServer, type RunningServer } from "./server.ts";

describe("request timeout", () => {
  let server: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await server?.close();
    await store?.close();
  });

  it("answers 504 Timeout when storage does not answer, and the server keeps serving", async () => {
    store = await createStore({ backend: "memory" });
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    const realList = store.list.bind(store);
    store.list = async (prefix, opts) => {
      if (prefix.includes("/services/")) await stuck;
      return realList(prefix, opts);
    };
    server = await startServer({ store, port: 0, requestTimeoutMs: 200 });
    const res = await fetch(`${server.url}/api/v1/services`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "Timeout",
      code: 504,
      message: "Timeout: request did not complete within requested timeout - context deadline exceeded",
    });
    release();
    expect((await fetch(`${server.url}/api/v1/namespaces`)).status).toBe(200);
  });

  it("request_deadline.go: the timeout parameter shortens the deadline; a malformed one is a 400", async () => {
    store = await createStore({ backend: "memory" });
    const stuck = new Promise<void>(() => {});
    const realList = store.list.bind(store);
    store.list = async (prefix, opts) => {
      if (prefix.includes("/services/")) await stuck;
      return realList(prefix, opts);
    };
    server = await startServer({ store, port: 0, requestTimeoutMs: 60_000 });
    const cut = await fetch(`${server.url}/api/v1/services?timeout=200ms`);
    expect(cut.status).toBe(504);
    const bad = await fetch(`${server.url}/api/v1/namespaces?timeout=soon`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      reason: "BadRequest",
      message: 'invalid timeout specified in the request URL - time: invalid duration "soon"',
    });
  });

  it("never cuts a watch", async () => {
    store = await createStore({ backend: "memory" });
    server = await startServer({ store, port: 0, requestTimeoutMs: 100 });
    const ac = new AbortController();
    const res = await fetch(`${server.url}/api/v1/namespaces?watch=true`, { signal: ac.signal });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const reader = res.body!.getReader();
    await fetch(`${server.url}/api/v1/namespaces`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: "late" } }),
    });
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"late"');
    ac.abort();
  });
});
