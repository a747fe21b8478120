/**
 * A tiny in-process apiserver on node:http for plumbing tests: LIST and
 * WATCH of a few resources (newline-delimited JSON events), POST/PUT/DELETE
 * recorded and echoed with a fresh resourceVersion. Not a Kubernetes
 * apiserver: no validation, no selectors beyond what the tests need.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedWrite {
  method: string;
  path: string;
  body: unknown;
}

interface Collection {
  items: Map<string, Record<string, unknown>>;
  watchers: Set<ServerResponse>;
  /** Every event with its revision, so a watch from resourceVersion N replays what came after N. */
  log: { rv: number; line: string }[];
}

type Obj = Record<string, unknown> & { metadata?: Record<string, unknown> };

export class FakeAPIServer {
  readonly writes: RecordedWrite[] = [];
  readonly lists = new Map<string, number>();
  readonly #collections = new Map<string, Collection>();
  /** Paths whose next watch gets a 410 Expired ERROR event (to test relisting). */
  readonly expireNextWatch = new Set<string>();
  /** Paths whose next watch is answered 500 (client-node then stops the informer). */
  readonly failNextWatch = new Set<string>();
  #rv = 100;
  #server: Server | undefined;
  #writeListeners: ((w: RecordedWrite) => void)[] = [];

  /** Registers a collection path such as `/api/v1/pods` with initial objects. */
  collection(path: string, items: Obj[] = []): this {
    const c: Collection = { items: new Map(), watchers: new Set(), log: [] };
    for (const o of items) c.items.set(this.#key(o), { ...o, metadata: { ...o.metadata, resourceVersion: String(++this.#rv) } });
    this.#collections.set(path, c);
    return this;
  }

  /** Adds or replaces an object and sends ADDED/MODIFIED to watchers. */
  upsert(path: string, obj: Obj): void {
    const c = this.#collections.get(path)!;
    const key = this.#key(obj);
    const type = c.items.has(key) ? "MODIFIED" : "ADDED";
    const rv = ++this.#rv;
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rv) } };
    c.items.set(key, stored);
    const line = JSON.stringify({ type, object: stored }) + "\n";
    c.log.push({ rv, line });
    for (const w of c.watchers) w.write(line);
  }

  /** Removes an object and sends DELETED to watchers. */
  remove(path: string, obj: Obj): void {
    const c = this.#collections.get(path)!;
    const key = this.#key(obj);
    const old = c.items.get(key);
    if (old === undefined) return;
    c.items.delete(key);
    const rv = ++this.#rv;
    const line = JSON.stringify({ type: "DELETED", object: { ...old, metadata: { ...(old["metadata"] as Record<string, unknown>), resourceVersion: String(rv) } } }) + "\n";
    c.log.push({ rv, line });
    for (const w of c.watchers) w.write(line);
  }

  /** Resolves with the first write matching `pred` (past or future). */
  waitForWrite(pred: (w: RecordedWrite) => boolean): Promise<RecordedWrite> {
    const seen = this.writes.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#writeListeners.push((w) => pred(w) && resolve(w)));
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((r) => this.#server!.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const c of this.#collections.values()) for (const w of c.watchers) w.end();
    this.#server?.closeAllConnections();
    await new Promise<void>((r) => this.#server?.close(() => r()) ?? r());
  }

  #key(o: Obj): string {
    return `${o.metadata?.["namespace"] ?? ""}/${o.metadata?.["name"] ?? ""}`;
  }

  // /api/v1/namespaces/default/endpoints[/name] -> (/api/v1/endpoints, name)
  // /apis/networking.k8s.io/v1/servicecidrs/x/status -> (/apis/networking.k8s.io/v1/servicecidrs, x)
  #route(pathname: string): { path: string; name?: string | undefined } {
    const ns = /^(\/apis?\/(?:[^/]+\/)?v1)\/namespaces\/([^/]+)\/([^/]+)(?:\/([^/]+))?(?:\/status)?$/.exec(pathname);
    if (ns) return { path: `${ns[1]}/${ns[3]}`, name: ns[4] };
    const cluster = /^(\/apis?\/(?:[^/]+\/)?v1\/[^/]+)\/([^/]+)(?:\/status)?$/.exec(pathname);
    if (cluster && this.#collections.has(cluster[1]!)) return { path: cluster[1]!, name: cluster[2] };
    return { path: pathname };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const { path, name } = this.#route(url.pathname);
    const c = this.#collections.get(path);
    if (c === undefined) return this.#send(res, 404, { kind: "Status", code: 404, reason: "NotFound" });
    let raw = "";
    for await (const chunk of req) raw += String(chunk);
    const body = raw === "" ? undefined : (JSON.parse(raw) as Obj);
    if (req.method === "GET" && url.searchParams.get("watch") === "true" && this.failNextWatch.delete(path)) {
      return this.#send(res, 500, { kind: "Status", code: 500, reason: "InternalError" });
    }
    if (req.method === "GET" && url.searchParams.get("watch") === "true") {
      res.writeHead(200, { "content-type": "application/json" });
      // Headers go out now: client-node's watch() resolves only once the response starts.
      res.flushHeaders();
      if (this.expireNextWatch.delete(path)) {
        res.end(JSON.stringify({ type: "ERROR", object: { kind: "Status", code: 410, reason: "Expired" } }) + "\n");
        return;
      }
      const from = Number(url.searchParams.get("resourceVersion") ?? "0");
      for (const e of c.log) if (e.rv > from) res.write(e.line);
      c.watchers.add(res);
      res.on("close", () => c.watchers.delete(res));
      return;
    }
    if (req.method === "GET" && name !== undefined) {
      const ns = /\/namespaces\/([^/]+)\//.exec(url.pathname)?.[1] ?? "";
      const got = c.items.get(`${ns}/${name}`);
      return got ? this.#send(res, 200, got) : this.#send(res, 404, { kind: "Status", code: 404, reason: "NotFound" });
    }
    if (req.method === "PUT" && body?.metadata?.["resourceVersion"] !== undefined) {
      const ns = /\/namespaces\/([^/]+)\//.exec(url.pathname)?.[1] ?? "";
      const cur = c.items.get(`${ns}/${name ?? ""}`);
      if (cur?.["metadata"] && (cur["metadata"] as Record<string, unknown>)["resourceVersion"] !== body.metadata["resourceVersion"]) {
        return this.#send(res, 409, { kind: "Status", code: 409, reason: "Conflict" });
      }
    }
    if (req.method === "GET") {
      this.lists.set(path, (this.lists.get(path) ?? 0) + 1);
      return this.#send(res, 200, { kind: "List", apiVersion: "v1", metadata: { resourceVersion: String(this.#rv) }, items: [...c.items.values()] });
    }
    const write = { method: req.method ?? "", path: url.pathname, body };
    this.writes.push(write);
    for (const l of this.#writeListeners) l(write);
    if (req.method === "DELETE") return this.#send(res, 200, { kind: "Status", status: "Success" });
    const generated = body?.metadata?.["name"] === undefined && typeof body?.metadata?.["generateName"] === "string" ? `${body.metadata["generateName"]}${++this.#rv}` : undefined;
    const obj = { ...body, metadata: { ...body?.metadata, ...(name ? { name } : {}), ...(generated ? { name: generated } : {}) } } as Obj;
    this.upsert(path, obj);
    return this.#send(res, req.method === "POST" ? 201 : 200, c.items.get(this.#key(obj)));
  }

  #send(res: ServerResponse, code: number, body: unknown): void {
    res.writeHead(code, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
}
