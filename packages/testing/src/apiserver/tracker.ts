/**
 * The object store behind the fake apiserver (upstream: `ObjectTracker` in
 * `client-go/testing/fixture.go`), with what the HTTP edge needs on top: one global
 * resourceVersion counter, an event log so a watch from resourceVersion N replays what came
 * after N, and fan-out to open watches.
 */
import { apiVersionOf, groupResource, type ResourceInfo } from "./resources.ts";
import { alreadyExists, conflict, notFound } from "./status.ts";

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  finalizers?: string[];
  [key: string]: unknown;
}

/** Any Kubernetes object as JSON. */
export type KubeObject = { apiVersion?: string; kind?: string; metadata?: ObjectMeta } & Record<string, unknown>;

export type EventType = "ADDED" | "MODIFIED" | "DELETED";

export interface TrackerEvent {
  rv: number;
  type: EventType;
  resource: ResourceInfo;
  object: KubeObject;
}

const keyOf = (namespace: string | undefined, name: string): string => `${namespace ?? ""}/${name}`;

export class ObjectTracker {
  readonly resources: readonly ResourceInfo[];
  /** The field manager that last applied each object (`pods/ns/name`): it owns the whole object. */
  readonly appliers = new Map<string, string>();
  readonly #now: () => Date;
  readonly #objects = new Map<ResourceInfo, Map<string, KubeObject>>();
  readonly #log: TrackerEvent[] = [];
  readonly #listeners = new Set<(e: TrackerEvent) => void>();
  #rv = 0;
  #generated = 0;

  constructor(resources: readonly ResourceInfo[], now: () => Date = () => new Date()) {
    this.resources = resources;
    this.#now = now;
    for (const r of resources) this.#objects.set(r, new Map());
  }

  /** The current (newest) resourceVersion, as a list's metadata carries it. */
  resourceVersion(): string {
    return String(this.#rv);
  }

  /** A resource by plural name or `name.group`; throws for one the fake does not serve. */
  resource(ref: string): ResourceInfo {
    const r = this.resources.find((x) => groupResource(x) === ref) ?? this.resources.find((x) => x.name === ref);
    if (r === undefined) throw new Error(`fake apiserver: no resource ${ref}`);
    return r;
  }

  /** The resource of an object from its apiVersion and kind. */
  resourceFor(obj: KubeObject): ResourceInfo {
    const r =
      this.resources.find((x) => x.kind === obj.kind && apiVersionOf(x) === obj.apiVersion) ??
      this.resources.find((x) => x.kind === obj.kind);
    if (r === undefined) throw new Error(`fake apiserver: no resource for ${obj.apiVersion}/${obj.kind}`);
    return r;
  }

  /**
   * Adds or replaces objects (fixtures), each stamped with a new resourceVersion and announced to
   * watches as ADDED or MODIFIED; `resource` is needed when the objects carry no kind.
   */
  add(objects: readonly object[], resource?: string): void {
    for (const obj of objects as readonly KubeObject[]) {
      const r = resource === undefined ? this.resourceFor(obj) : this.resource(resource);
      const name = obj.metadata?.name ?? "";
      const existed = this.#objects.get(r)!.has(keyOf(obj.metadata?.namespace, name));
      this.#store(r, obj, existed ? "MODIFIED" : "ADDED");
    }
  }

  /** Every object of every resource, in insertion order per resource. */
  all(): KubeObject[] {
    return [...this.#objects.values()].flatMap((m) => [...m.values()]);
  }

  /** Drops every object (no events: for resetting fixtures between tests). */
  clear(): void {
    for (const m of this.#objects.values()) m.clear();
    this.appliers.clear();
  }

  get(r: ResourceInfo, namespace: string | undefined, name: string): KubeObject {
    const got = this.#objects.get(r)!.get(keyOf(namespace, name));
    if (got === undefined) throw notFound(r, name);
    return got;
  }

  list(r: ResourceInfo, namespace: string | undefined): KubeObject[] {
    const all = [...this.#objects.get(r)!.values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata?.namespace === namespace);
  }

  /** POST: AlreadyExists when the name is taken; generateName picks a fresh name. */
  create(r: ResourceInfo, obj: KubeObject, namespace: string | undefined): KubeObject {
    const meta = { ...obj.metadata };
    if (meta.name === undefined && meta.generateName !== undefined)
      meta.name = `${meta.generateName}${(++this.#generated).toString(36).padStart(5, "x")}`;
    const name = meta.name ?? "";
    if (this.#objects.get(r)!.has(keyOf(namespace, name))) throw alreadyExists(r, name);
    const stamped = {
      ...obj,
      metadata: {
        ...meta,
        uid: meta.uid ?? `uid-fake-${this.#rv + 1}`,
        creationTimestamp: meta.creationTimestamp ?? this.#timestamp(),
        ...(namespace === undefined ? {} : { namespace }),
      },
    };
    return this.#store(r, stamped, "ADDED");
  }

  /**
   * PUT: a body resourceVersion that is not the stored one is a Conflict (optimistic
   * concurrency); a missing object is NotFound unless the resource allows create-on-update.
   * `status` replaces only `.status`, as the status subresource does.
   */
  update(r: ResourceInfo, obj: KubeObject, namespace: string | undefined, name: string, subresource?: string): KubeObject {
    const current = this.#objects.get(r)!.get(keyOf(namespace, name));
    if (current === undefined) {
      if (!r.allowCreateOnUpdate || subresource !== undefined) throw notFound(r, name);
      return this.create(r, { ...obj, metadata: { ...obj.metadata, name } }, namespace);
    }
    const rv = obj.metadata?.resourceVersion;
    if (rv !== undefined && rv !== "" && rv !== current.metadata?.resourceVersion) {
      throw conflict(r, name, "the object has been modified; please apply your changes to the latest version and try again");
    }
    const next =
      subresource === "status"
        ? { ...current, status: obj["status"] }
        : {
            ...obj,
            metadata: {
              ...obj.metadata,
              name,
              uid: current.metadata?.uid,
              creationTimestamp: current.metadata?.creationTimestamp,
              ...(namespace === undefined ? {} : { namespace }),
            },
          };
    return this.#store(r, next, "MODIFIED");
  }

  /** DELETE: an object with finalizers only gets a deletionTimestamp, as upstream's graceful deletion. */
  delete(r: ResourceInfo, namespace: string | undefined, name: string): { deleted: boolean; object: KubeObject } {
    const current = this.get(r, namespace, name);
    if ((current.metadata?.finalizers ?? []).length > 0) {
      const deleting = {
        ...current,
        metadata: { ...current.metadata, deletionTimestamp: current.metadata?.deletionTimestamp ?? this.#now().toISOString() },
      };
      return { deleted: false, object: this.#store(r, deleting, "MODIFIED") };
    }
    this.#objects.get(r)!.delete(keyOf(namespace, name));
    this.appliers.delete(`${groupResource(r)}/${namespace ?? ""}/${name}`);
    const rv = ++this.#rv;
    const object = { ...current, metadata: { ...current.metadata, resourceVersion: String(rv) } };
    this.#emit({ rv, type: "DELETED", resource: r, object });
    return { deleted: true, object: current };
  }

  /** Events after resourceVersion `from`, oldest first. */
  since(from: number): TrackerEvent[] {
    return this.#log.filter((e) => e.rv > from);
  }

  /** Calls `fn` for every change from now on; returns the unsubscribe function. */
  subscribe(fn: (e: TrackerEvent) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  #timestamp(): string {
    return this.#now()
      .toISOString()
      .replace(/\.\d+Z$/, "Z");
  }

  #store(r: ResourceInfo, obj: KubeObject, type: EventType): KubeObject {
    const rv = ++this.#rv;
    const stored: KubeObject = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rv) } };
    this.#objects.get(r)!.set(keyOf(stored.metadata?.namespace, stored.metadata?.name ?? ""), stored);
    this.#emit({ rv, type, resource: r, object: stored });
    return stored;
  }

  #emit(e: TrackerEvent): void {
    this.#log.push(e);
    for (const l of this.#listeners) l(e);
  }
}
