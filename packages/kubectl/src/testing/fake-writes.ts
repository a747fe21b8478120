/**
 * Writes and watches for the fake apiserver, just enough for the CLI's
 * create/apply/delete/get -w tests: POST (AlreadyExists), server-side apply
 * PATCH (a conflict when another manager applied the object and force is
 * off), DELETE (finalizers leave a deletionTimestamp), and watch streams of
 * JSON lines (Tables for as=Table). No validation and no defaulting.
 */
import type { PartialObjectMetadata, Table } from "@servicenet/api";
import type { PrintOptions } from "@servicenet/printers";
import type { IncomingMessage, ServerResponse } from "node:http";

/** What the fake knows of a resource (a subset of its ResourceInfo). */
export interface WriteResource {
  group: string;
  name: string;
  kind: string;
  namespaced: boolean;
  table: (items: never[], opts: PrintOptions) => Table;
}

interface Watcher {
  info: WriteResource;
  namespace: string | undefined;
  name: string | undefined;
  table: boolean;
  res: ServerResponse;
}

/** Mutable state shared with the read path. */
export interface FakeState {
  objects: PartialObjectMetadata[];
  managers: Map<PartialObjectMetadata, string>;
  watchers: Set<Watcher>;
  rv: number;
  now: () => Date;
}

const status = (code: number, reason: string, message: string, details: object = {}) => ({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, details, code });

function reply(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function notify(state: FakeState, type: string, obj: PartialObjectMetadata): void {
  for (const w of state.watchers) {
    if (w.info.kind !== obj.kind || (w.namespace !== undefined && w.namespace !== obj.metadata?.namespace)) continue;
    if (w.name !== undefined && w.name !== obj.metadata?.name) continue;
    const object = w.table ? w.info.table([obj] as never[], { wide: true, now: state.now(), includeObject: "Object" }) : obj;
    w.res.write(JSON.stringify({ type, object }) + "\n");
  }
}

/** Opens a watch stream; it ends when the client goes away. */
export function startWatch(state: FakeState, req: IncomingMessage, res: ServerResponse, info: WriteResource, namespace: string | undefined, fieldSelector: string | null): void {
  const name = /^metadata\.name=(.+)$/.exec(fieldSelector ?? "")?.[1];
  const w: Watcher = { info, namespace, name, table: (req.headers.accept ?? "").includes("as=Table"), res };
  res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
  res.write("");
  state.watchers.add(w);
  // res, not req: a request "closes" as soon as its (empty) body is read.
  res.on("close", () => state.watchers.delete(w));
}

function stamp(state: FakeState, obj: PartialObjectMetadata, namespace: string | undefined): PartialObjectMetadata {
  state.rv++;
  const metadata = { ...obj.metadata, resourceVersion: String(state.rv), uid: obj.metadata?.uid ?? `uid-fake-${state.rv}`, creationTimestamp: obj.metadata?.creationTimestamp ?? state.now().toISOString().replace(/\.\d+Z$/, "Z") };
  if (namespace !== undefined) metadata.namespace = namespace;
  return { ...obj, metadata };
}

/** Handles POST, PATCH (apply) and DELETE; `name` is undefined for a collection. */
export function handleWrite(state: FakeState, req: IncomingMessage, res: ServerResponse, body: string, info: WriteResource, namespace: string | undefined, name: string | undefined, query: URLSearchParams): void {
  const gr = info.group === "" ? info.name : `${info.name}.${info.group}`;
  const parsed = body === "" ? {} : (JSON.parse(body) as PartialObjectMetadata);
  const key = name ?? parsed.metadata?.name ?? "";
  const index = state.objects.findIndex((o) => o.kind === info.kind && o.metadata?.name === key && (!info.namespaced || o.metadata?.namespace === namespace));
  const current = state.objects[index];
  const details = { name: key, group: info.group, kind: info.name };
  if (req.method === "POST") {
    if (current !== undefined) return reply(res, 409, status(409, "AlreadyExists", `${gr} "${key}" already exists`, details));
    const created = stamp(state, parsed, namespace);
    state.objects.push(created);
    notify(state, "ADDED", created);
    return reply(res, 201, created);
  }
  if (req.method === "PATCH") {
    const manager = query.get("fieldManager") ?? "";
    const owner = current === undefined ? undefined : state.managers.get(current);
    if (owner !== undefined && owner !== manager && query.get("force") !== "true") {
      return reply(res, 409, status(409, "Conflict", `Apply failed with 1 conflict: conflict with "${owner}": .spec`, details));
    }
    const applied = stamp(state, { ...parsed, metadata: { ...parsed.metadata, uid: current?.metadata?.uid, creationTimestamp: current?.metadata?.creationTimestamp } }, namespace);
    if (current === undefined) state.objects.push(applied);
    else state.objects[index] = applied;
    state.managers.set(applied, manager);
    notify(state, current === undefined ? "ADDED" : "MODIFIED", applied);
    return reply(res, current === undefined ? 201 : 200, applied);
  }
  if (req.method === "DELETE") {
    if (current === undefined) return reply(res, 404, status(404, "NotFound", `${gr} "${key}" not found`, details));
    if ((current.metadata?.finalizers ?? []).length > 0) {
      const deleting = stamp(state, { ...current, metadata: { ...current.metadata, deletionTimestamp: state.now().toISOString() } }, undefined);
      state.objects[index] = deleting;
      notify(state, "MODIFIED", deleting);
      return reply(res, 200, deleting);
    }
    state.objects.splice(index, 1);
    notify(state, "DELETED", current);
    return reply(res, 200, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details });
  }
  reply(res, 405, status(405, "MethodNotAllowed", `the server does not allow this method on the requested resource`));
}
