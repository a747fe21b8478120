/**
 * One fake kube-apiserver on node:http for tests of API clients (client-node informers and
 * controllers, servicenet-kubectl, real kubectl): discovery, get/list with label and field
 * selectors, create/update/patch/delete with resourceVersions, watch fan-out, Tables through a
 * builder the test passes in, and reactors in front of the object tracker (the shape of
 * `client-go/testing`'s Fake). Not kube-apiserver: no validation, defaulting or admission.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { apiGroupDoc, apiGroupList, apiResourceList, apiVersions } from "./discovery.ts";
import { handleResource, send } from "./handlers.ts";
import { handles, type Action, type Reactor, type ReactorEntry, type Verb } from "./reactors.ts";
import { requestInfo } from "./request-info.ts";
import { defaultResources, type ResourceInfo } from "./resources.ts";
import { failure } from "./status.ts";
import { ObjectTracker } from "./tracker.ts";
import type { TableBuilder } from "./table.ts";

export type { TableBuilder, TableOptions } from "./table.ts";

export interface FakeAPIServerOptions {
  /** The served resources (default: defaultResources). */
  resources?: readonly ResourceInfo[];
  /** Initial objects; their apiVersion and kind pick the resource. */
  objects?: readonly object[];
  table?: TableBuilder;
  /** Clock for creationTimestamp, deletionTimestamp and Table ages. */
  now?: () => Date;
}

export class FakeAPIServer {
  readonly tracker: ObjectTracker;
  /** `METHOD /path?query` of every request, discovery included. */
  readonly requests: string[] = [];
  readonly #actions: Action[] = [];
  readonly #reactors: ReactorEntry[] = [];
  readonly #waiters = new Set<(a: Action) => void>();
  readonly #streams = new Set<ServerResponse>();
  readonly #table: TableBuilder | undefined;
  readonly #now: () => Date;
  #server: Server | undefined;
  #url: string | undefined;

  constructor(opts: FakeAPIServerOptions = {}) {
    this.#now = opts.now ?? (() => new Date());
    this.tracker = new ObjectTracker(opts.resources ?? defaultResources, this.#now);
    this.#table = opts.table;
    this.tracker.add(opts.objects ?? []);
  }

  /** Every resource request served, oldest first (upstream: `Fake.Actions()`). */
  get actions(): readonly Action[] {
    return this.#actions;
  }

  /** The create, update, patch and delete actions. */
  get writes(): readonly Action[] {
    return this.#actions.filter((a) => a.verb !== "get" && a.verb !== "list" && a.verb !== "watch");
  }

  get url(): string {
    if (this.#url === undefined) throw new Error("fake apiserver not started");
    return this.#url;
  }

  /** Puts a reactor in front of the others and the tracker (upstream: `Fake.PrependReactor`). */
  prependReactor(verb: Verb | "*", resource: string, react: Reactor): this {
    this.#reactors.unshift({ verb, resource, react });
    return this;
  }

  /** Replaces every object (fixtures between tests). */
  reset(objects: readonly object[]): void {
    this.tracker.clear();
    this.tracker.add(objects);
  }

  /** Resolves with the first action matching `pred`, past or future. */
  waitForAction(pred: (a: Action) => boolean): Promise<Action> {
    const seen = this.#actions.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const w = (a: Action): void => {
        if (!pred(a)) return;
        this.#waiters.delete(w);
        resolve(a);
      };
      this.#waiters.add(w);
    });
  }

  /** Listens on 127.0.0.1 with an ephemeral port; resolves with the base URL. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => this.#handle(req, res, body));
    });
    this.#server = server;
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    this.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.#url;
  }

  /** Ends every watch and closes the server. */
  async stop(): Promise<void> {
    for (const s of this.#streams) s.end();
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  #handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? "/", "http://x");
    this.requests.push(`${req.method} ${url.pathname}${url.search}`);
    const p = url.pathname.replace(/\/$/, "");
    const resources = this.tracker.resources;
    if (p === "/api") return send(res, 200, apiVersions);
    if (p === "/apis") return send(res, 200, apiGroupList(resources));
    if (p === "/version") return send(res, 200, { major: "1", minor: "33", gitVersion: "v1.33.0-servicenet-fake" });
    const group = /^\/apis\/([^/]+)$/.exec(p)?.[1];
    const info = requestInfo(p);
    const doc =
      group !== undefined
        ? apiGroupDoc(resources, group)
        : info !== undefined && info.resource === undefined
          ? apiResourceList(resources, info.group, info.version)
          : undefined;
    if (doc !== undefined) return send(res, 200, doc);
    const resource =
      info === undefined
        ? undefined
        : resources.find((r) => r.group === info.group && r.version === info.version && r.name === info.resource);
    if (info === undefined || resource === undefined)
      return send(res, 404, failure(404, "NotFound", "the server could not find the requested resource"));
    let decoded: unknown;
    try {
      decoded = body === "" ? undefined : JSON.parse(body);
    } catch (e) {
      return send(res, 400, failure(400, "BadRequest", `error decoding request body: ${String(e)}`));
    }
    const action: Action = {
      verb: verbOf(req.method ?? "GET", info.name, url.searchParams),
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      resource,
      namespace: resource.namespaced ? info.namespace : undefined,
      name: info.name,
      subresource: info.subresource,
      body: decoded,
      userAgent: req.headers["user-agent"],
    };
    this.#actions.push(action);
    for (const w of [...this.#waiters]) w(action);
    const reaction = this.#reactors
      .filter((e) => handles(e, action))
      .reduce<ReturnType<Reactor>>((got, e) => got ?? e.react(action), undefined);
    if (reaction !== undefined && "events" in reaction) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return void res.end(reaction.events.map((e) => JSON.stringify(e) + "\n").join(""));
    }
    if (reaction !== undefined) return send(res, reaction.status, reaction.body);
    handleResource(
      {
        tracker: this.tracker,
        action,
        accept: req.headers.accept ?? "",
        contentType: req.headers["content-type"] ?? "",
        table: this.#table,
        now: this.#now,
        streams: this.#streams,
      },
      res,
    );
  }
}

/** Creates and starts a fake apiserver. */
export async function startFakeAPIServer(opts: FakeAPIServerOptions = {}): Promise<FakeAPIServer> {
  const s = new FakeAPIServer(opts);
  await s.start();
  return s;
}

function verbOf(method: string, name: string | undefined, query: URLSearchParams): Verb {
  const watch = query.get("watch");
  if (method === "GET") return watch === "true" || watch === "1" ? "watch" : name === undefined ? "list" : "get";
  return ({ POST: "create", PUT: "update", PATCH: "patch", DELETE: "delete" } as Record<string, Verb>)[method] ?? "get";
}
