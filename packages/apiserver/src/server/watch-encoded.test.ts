// A watch event's object is the JSON of its stored version from the resource's encoded-object
// cache, as upstream's cacher serialises a cachingObject once for the list and every watcher
// (staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go): what a LIST, GET or the
// write's answer encoded for that version is what the watcher gets; a DELETED event is not shared.
import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { GenericStore } from "../registry/generic/store.ts";
import type { KubeObject, WatchEvent } from "../storage/index.ts";
import { encodedCacheOf } from "./encoded-cache.ts";
import { objectJSON, present } from "./present.ts";
import { findResource } from "./resources.ts";
import { serveWatch } from "./watch.ts";

const def = findResource("", "v1", "services")!;

const svc = (rv: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "a", namespace: "ns", resourceVersion: rv, labels },
  spec: { ports: [{ port: 80 }] },
});

/** A store whose watch delivers `events` and ends. */
function storeOf(events: WatchEvent[]): GenericStore {
  return {
    watch: () =>
      (async function* () {
        yield* events;
      })(),
  } as unknown as GenericStore;
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** The lines a JSON watch over `store` answers. */
async function watchLines(store: GenericStore): Promise<string[]> {
  server = createServer((req, res) => {
    void serveWatch(req, res, {
      def,
      store,
      namespace: "ns",
      params: {},
      format: "json",
      query: new URLSearchParams(),
      shutdown: new AbortController().signal,
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    get(`http://127.0.0.1:${port}/`, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve(text.split("\n").filter((l) => l !== "")));
    }).on("error", reject);
  });
}

describe("watch events and the encoded-object cache", () => {
  it("writes the bytes of an ADDED or MODIFIED object exactly as JSON.stringify of the event", async () => {
    const store = storeOf([
      { type: "ADDED", object: svc("5", { x: "1" }) },
      { type: "MODIFIED", object: svc("6", { x: "2" }) },
    ]);
    const lines = await watchLines(store);
    expect(lines).toEqual([
      JSON.stringify({ type: "ADDED", object: present(def, svc("5", { x: "1" })) }),
      JSON.stringify({ type: "MODIFIED", object: present(def, svc("6", { x: "2" })) }),
    ]);
    // The newest version is kept for the LISTs and GETs that follow.
    expect(encodedCacheOf(store).stats().entries).toBe(1);
    expect(objectJSON(def, svc("6", { x: "2" }), encodedCacheOf(store))).toBe(JSON.stringify(present(def, svc("6", { x: "2" }))));
  });

  it("serves an object version encoded before (by a GET, LIST or the write's answer) from the cache", async () => {
    const store = storeOf([{ type: "MODIFIED", object: svc("7", { x: "3" }) }]);
    // The same version encoded earlier; a marker label shows which encoding the watcher got.
    const earlier = objectJSON(def, svc("7", { x: "3", encodedBy: "get" }), encodedCacheOf(store));
    const lines = await watchLines(store);
    expect(lines).toEqual([`{"type":"MODIFIED","object":${earlier}}`]);
  });

  it("does not take a DELETED event's object (old content at the deleting revision) from the cache or put it there", async () => {
    const store = storeOf([{ type: "DELETED", object: svc("8", { x: "4" }) }]);
    objectJSON(def, svc("8", { x: "4", encodedBy: "get" }), encodedCacheOf(store));
    const lines = await watchLines(store);
    expect(lines).toEqual([JSON.stringify({ type: "DELETED", object: present(def, svc("8", { x: "4" })) })]);
  });
});
