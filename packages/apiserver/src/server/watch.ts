/**
 * Watch responses: a chunked stream of `{"type":..., "object":...}` JSON lines
 * (k8s.io/apiserver endpoints/handlers/watch.go). Ends on timeoutSeconds, client disconnect,
 * an ERROR event (e.g. 410 too old resource version) or server shutdown.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { StatusError } from "@servicenet/api";
import type { GenericStore } from "../registry/generic/store.ts";
import type { WatchParams } from "../registry/generic/options.ts";
import { sharedOrigin, WatchStream, type KubeObject, type WatchEvent } from "../storage/index.ts";
import type { OutputFormat } from "./negotiation.ts";
import { encodedCacheOf } from "./encoded-cache.ts";
import { objectJSON, present, tableOptions } from "./present.ts";
import { buildTable } from "./table.ts";
import { apiVersionOf, type ResourceDef } from "./resources.ts";
import { chunkOf, chunkWriter, type EventChunk } from "./watch-chunks.ts";
import { inServedVersion } from "./served-version.ts";
import { stringifyJSON } from "../util/json/json.ts";

/** Upstream's default --min-request-timeout (a watch lasts this long when the client sets no timeout). */
export const defaultWatchTimeoutSeconds = 1800;

const maxTimerMs = 2 ** 31 - 1;

export interface WatchRequest {
  def: ResourceDef;
  store: GenericStore;
  namespace: string | undefined;
  params: WatchParams;
  format: OutputFormat;
  query: URLSearchParams;
  timeoutSeconds?: number;
  /** `sendInitialEvents=true`: ADDED for the current state, then a bookmark marking its end. */
  sendInitialEvents?: boolean;
  /** Aborted when the server shuts down. */
  shutdown: AbortSignal;
}

/** Streams a watch to `res`; resolves when the stream ends. */
export async function serveWatch(req: IncomingMessage, res: ServerResponse, w: WatchRequest): Promise<void> {
  const ac = new AbortController();
  const stop = (): void => ac.abort();
  req.on("close", stop);
  res.on("close", stop);
  w.shutdown.addEventListener("abort", stop, { once: true });
  const timeoutMs = (w.timeoutSeconds ?? defaultWatchTimeoutSeconds) * 1000;
  const deadline = Date.now() + timeoutMs;
  // setTimeout takes at most 2^31-1 ms (a longer delay fires at once): longer timeouts wait that long.
  const timer = setTimeout(stop, Math.min(timeoutMs, maxTimerMs));
  let first = true;
  const apiVersion = apiVersionOf(w.def);
  const encodeObject = (obj: KubeObject): unknown => {
    if (w.format !== "table") return present(w.def, obj);
    const t = buildTable(
      w.def.printer,
      [obj],
      { resourceVersion: obj.metadata.resourceVersion ?? "" },
      { ...tableOptions(w.query), noHeaders: !first, present: (x) => present(w.def, x) },
    );
    first = false;
    return t;
  };
  let send: (chunk: EventChunk) => void = () => {};
  const write = (type: string, object: unknown): void => send(chunkOf(`${stringifyJSON({ type, object })}\n`));
  const cache = encodedCacheOf(w.store);
  // An added or modified object is the object as stored at the event's resourceVersion: its JSON
  // is the one LISTs, GETs and the write's answer use (encoded-cache.ts). A DELETED event carries
  // the old content at the deleting revision, which no read shares.
  const eventLine = (type: string, obj: KubeObject): string =>
    type === "ADDED" || type === "MODIFIED"
      ? `{"type":"${type}","object":${objectJSON(w.def, obj, cache)}}\n`
      : `${stringifyJSON({ type, object: present(w.def, obj) })}\n`;
  const writeObject = (type: string, obj: KubeObject): void => {
    if (res.writableEnded) return;
    if (w.format !== "json") return write(type, encodeObject(obj));
    send(encodedEvent(type, obj, () => eventLine(type, obj), apiVersion));
  };
  const bookmark = (rv: string, annotations?: Record<string, string>): unknown => ({
    kind: w.def.kind,
    apiVersion,
    metadata: { resourceVersion: rv, ...(annotations ? { annotations } : {}) },
  });
  res.writeHead(200, {
    "Content-Type": w.format === "table" ? "application/json;as=Table;v=v1;g=meta.k8s.io" : "application/json",
    "Cache-Control": "no-cache, private",
    "Transfer-Encoding": "chunked",
  });
  res.flushHeaders();
  send = chunkWriter(res);
  try {
    // Only serialised here (the Service watch's read-time defaulting is idempotent): one shared copy per event.
    let params = { ...w.params, signal: ac.signal, readOnly: true, deadline };
    if (w.sendInitialEvents) {
      const list = await w.store.list(w.namespace, {
        ...(params.labelSelector ? { labelSelector: params.labelSelector } : {}),
        ...(params.fieldSelector ? { fieldSelector: params.fieldSelector } : {}),
      });
      for (const item of list.items) writeObject("ADDED", await inServedVersion(w.def, item));
      write("BOOKMARK", bookmark(list.resourceVersion, { "k8s.io/initial-events-end": "true" }));
      params = { ...params, resourceVersion: list.resourceVersion };
    }
    const handle = (ev: WatchEvent): boolean => {
      if (ev.type === "ERROR") {
        write("ERROR", ev.object);
        return false;
      }
      if (ev.type === "BOOKMARK") write("BOOKMARK", bookmark(ev.object.metadata.resourceVersion ?? ""));
      else writeObject(ev.type, ev.object);
      return true;
    };
    const events = w.store.watch(w.namespace, params);
    if (w.def.fromStorage !== undefined) return await serveConverted(events, handle, w.def, write);
    // The storage's own stream is written as its events are pushed, without a promise per event
    // and watcher (an ERROR ends it); any other iterable is iterated.
    if (events instanceof WatchStream) await events.consume(handle);
    else for await (const ev of events) if (!handle(ev)) break;
  } catch (e) {
    if (!ac.signal.aborted) write("ERROR", (e instanceof StatusError ? e : StatusError.internal(String(e))).status);
  } finally {
    clearTimeout(timer);
    req.off("close", stop);
    w.shutdown.removeEventListener("abort", stop);
    if (!res.writableEnded) res.end();
  }
}

/**
 * The events of a version converted by a webhook: each object converted in order before it is
 * written; one that cannot be converted ends the watch with an ERROR event (the watcher's decode
 * error, an internal error as the storage reports it).
 */
async function serveConverted(
  events: AsyncIterable<WatchEvent>,
  handle: (ev: WatchEvent) => boolean,
  def: ResourceDef,
  write: (type: string, object: unknown) => void,
): Promise<void> {
  for await (const ev of events) {
    if (ev.type === "ERROR" || ev.type === "BOOKMARK") {
      if (!handle(ev)) return;
      continue;
    }
    let object: KubeObject;
    try {
      object = await inServedVersion(def, ev.object);
    } catch (e) {
      write("ERROR", (e instanceof StatusError ? e : StatusError.internal(String(e))).status);
      return;
    }
    if (!handle({ ...ev, object })) return;
  }
}

/** An encoding of a shared stored value: by event type, served version and resourceVersion. */
interface Encoded {
  type: string;
  apiVersion: string;
  resourceVersion: string | undefined;
  chunk: EventChunk;
}

/** Encoded watch chunks per shared stored value (usually one; a few with several served versions). */
const encodings = new WeakMap<object, Encoded[]>();

/**
 * The chunk of a watch event's JSON line, encoded once for every watcher that got a copy of the
 * same stored value (upstream serialises a watch event once per encoding, cacher's cachingObject):
 * with 500 watchers, one JSON.stringify and one Buffer instead of 500. Objects no other watcher
 * shares are encoded as they come.
 */
export function encodedEvent(type: string, obj: KubeObject, encode: () => string, apiVersion: string): EventChunk {
  const from = sharedOrigin(obj);
  if (from === undefined) return chunkOf(encode());
  let known = encodings.get(from);
  if (known === undefined) encodings.set(from, (known = []));
  const rv = obj.metadata.resourceVersion;
  for (const e of known) if (e.type === type && e.apiVersion === apiVersion && e.resourceVersion === rv) return e.chunk;
  const chunk = chunkOf(encode());
  known.push({ type, apiVersion, resourceVersion: rv, chunk });
  return chunk;
}
