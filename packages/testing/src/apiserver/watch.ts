/**
 * Watch streams of the fake apiserver: newline-delimited JSON WatchEvents, starting with the
 * events after the requested resourceVersion (or synthetic ADDED events for every matching
 * object when there is none, as kube-apiserver's watch cache does for resourceVersion=0), then
 * every change as it happens.
 */
import type { ServerResponse } from "node:http";
import type { ResourceInfo } from "./resources.ts";
import { fieldMatcher, labelMatcher } from "./selectors.ts";
import type { KubeObject, ObjectTracker, TrackerEvent } from "./tracker.ts";

export interface WatchRequest {
  resource: ResourceInfo;
  namespace: string | undefined;
  query: URLSearchParams;
  /** Renders an object as a one-row Table when the client asked for as=Table. */
  table?: ((obj: KubeObject) => unknown) | undefined;
}

/** Writes the response head now: client-node's watch() resolves only once the response starts. */
export function openStream(res: ServerResponse): void {
  res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
  res.flushHeaders();
}

/** Serves a watch until the client goes away; `streams` holds it so the server can end it on stop. */
export function serveWatch(tracker: ObjectTracker, req: WatchRequest, res: ServerResponse, streams: Set<ServerResponse>): void {
  const labels = labelMatcher(req.query.get("labelSelector"));
  const fields = fieldMatcher(req.query.get("fieldSelector"));
  const matches = (e: TrackerEvent): boolean =>
    e.resource === req.resource &&
    (req.namespace === undefined || e.object.metadata?.namespace === req.namespace) &&
    labels(e.object) &&
    fields(e.object);
  const send = (type: string, obj: KubeObject): void => {
    res.write(JSON.stringify({ type, object: req.table ? req.table(obj) : obj }) + "\n");
  };
  openStream(res);
  const rv = req.query.get("resourceVersion");
  if (rv === null || rv === "" || rv === "0") {
    for (const obj of tracker.list(req.resource, req.namespace))
      if (matches({ rv: 0, type: "ADDED", resource: req.resource, object: obj })) send("ADDED", obj);
  } else {
    for (const e of tracker.since(Number(rv))) if (matches(e)) send(e.type, e.object);
  }
  const unsubscribe = tracker.subscribe((e) => matches(e) && send(e.type, e.object));
  streams.add(res);
  // res, not req: a request "closes" as soon as its (empty) body is read.
  res.on("close", () => {
    unsubscribe();
    streams.delete(res);
  });
}
