/**
 * The Service REST storage (upstream pkg/registry/core/service/storage/storage.go): the generic
 * store plus the allocation pipeline. Create and update allocate ClusterIPs and NodePorts before
 * the strategy validates and the object is persisted (BeginCreate/BeginUpdate), commit the
 * allocation only after the write succeeded and revert it on any failure; delete releases
 * everything the Service held (AfterDelete); every object read is decorated with
 * defaultOnReadService so legacy objects show ipFamilies/ipFamilyPolicy.
 */
import { field, type Service, StatusError, validateObjectMeta, validateServiceName } from "@servicenet/api";
import type { KubeObject, ListResult, Store, WatchEvent } from "../../../../storage/index.ts";
import { GenericStore, type GenericStoreConfig } from "../../../generic/store.ts";
import type {
  DeleteParams,
  DeleteResult,
  ListParams,
  UpdatedObjectInfo,
  UpdateParams,
  UpdateResult,
  WatchParams,
  WriteParams,
} from "../../../generic/options.ts";
import type { Allocators } from "./alloc.ts";
import type { AllocLogger } from "./alloc-cluster-ips.ts";
import { defaultOnReadService, normalizeClusterIPs, patchAllocatedValues } from "./normalize.ts";
import { hookedStore, writeTrackers, type WriteTracker } from "./rest-store-hooks.ts";
import { restoreServiceAllocations, type RestoreReport } from "./startup.ts";
import type { Transaction } from "./transaction.ts";

export interface ServiceRESTOptions {
  /** The cluster's IP allocators per family and the NodePort allocator. */
  allocators: Allocators;
  /** Deletes the Endpoints object of a deleted Service (upstream afterDelete); optional. */
  deleteEndpoints?: (namespace: string, name: string) => Promise<void>;
  /** Log sink for startup restore and best-effort cleanup; defaults to console.warn for warn/error. */
  log?: AllocLogger;
}

const defaultLog: AllocLogger = (level, msg, fields) => {
  if (level !== "info") console.warn(`${level}: ${msg}`, fields ?? {});
};

const asView = (o: KubeObject): Service => o as unknown as Service;

/** Service storage: a GenericStore with upstream's BeginCreate/BeginUpdate/AfterDelete/Decorator. */
export class ServiceREST extends GenericStore {
  readonly allocators: Allocators;
  readonly #deleteEndpoints: ServiceRESTOptions["deleteEndpoints"];
  readonly #log: AllocLogger;
  #restored: RestoreReport | null = null;

  constructor(store: Store, config: GenericStoreConfig, opts: ServiceRESTOptions) {
    const self: { rest?: ServiceREST } = {};
    // Every real delete of the storage, whatever verb caused it, releases (upstream AfterDelete).
    super(
      hookedStore(store, async (obj) => self.rest?.afterDelete(obj)),
      config,
    );
    self.rest = this;
    this.allocators = opts.allocators;
    this.#deleteEndpoints = opts.deleteEndpoints;
    this.#log = opts.log ?? defaultLog;
  }

  /** Constructs the storage and marks every stored Service's IPs and ports allocated (see `init`). */
  static async create(store: Store, config: GenericStoreConfig, opts: ServiceRESTOptions): Promise<ServiceREST> {
    const rest = new ServiceREST(store, config, opts);
    await rest.init();
    return rest;
  }

  /**
   * Startup: lists every stored Service and marks its ClusterIPs, NodePorts and
   * healthCheckNodePort allocated, so a restarted server never hands out a held value twice.
   * Must complete before the first request is served. Idempotent (the second call is a no-op).
   */
  async init(): Promise<RestoreReport> {
    if (this.#restored) return this.#restored;
    const what = this.allocators.restoreFromServices;
    if (!what.clusterIPs && !what.nodePorts) return (this.#restored = { clusterIPs: 0, nodePorts: 0, skipped: 0 });
    const { items } = await super.list(undefined, {});
    this.#restored = await restoreServiceAllocations(
      this.allocators,
      items.map((o) => asView(this.decorate(o))),
      this.#log,
    );
    return this.#restored;
  }

  /** Read-time defaulting of a stored object (upstream's Decorator), in place. */
  decorate(obj: KubeObject): KubeObject {
    defaultOnReadService(asView(obj), this.allocators.defaultServiceIPFamily);
    return obj;
  }

  override async get(namespace: string | undefined, name: string, resourceVersion?: string): Promise<KubeObject> {
    return this.decorate(await super.get(namespace, name, resourceVersion));
  }

  override async list(namespace: string | undefined, p: ListParams = {}): Promise<ListResult> {
    const res = await super.list(namespace, p);
    for (const item of res.items) this.decorate(item);
    return res;
  }

  override watch(namespace: string | undefined, p: WatchParams = {}): AsyncIterable<WatchEvent> {
    // Decorated as the storage delivers, not by a generator around it: one async step per event
    // and watcher less, and the HTTP watch can take the storage's events synchronously.
    return super.watch(namespace, { ...p, decorate: (o) => void this.decorate(o) });
  }

  /** BeginCreate: normalise and allocate, then the generic create; commit on success, revert on any error. */
  override async create(namespace: string | undefined, obj: KubeObject, p: WriteParams = {}): Promise<KubeObject> {
    this.initCreateMetadata(obj, namespace);
    // Upstream validates before it allocates; the IPAddress allocator needs the name for parentRef.
    if (!obj.metadata.name)
      throw StatusError.invalid({ group: "", kind: "Service" }, "", [field.required("metadata.name", "name or generateName is required")]);
    // An invalid name would otherwise fail as the IPAddress's parentRef.name (a 500 from the allocator).
    const nameErrors = validateObjectMeta(obj.metadata, { namespaced: true, nameValidator: validateServiceName }).filter(
      (e) => e.field === "metadata.name",
    );
    if (nameErrors.length > 0) throw StatusError.invalid({ group: "", kind: "Service" }, obj.metadata.name, nameErrors);
    const txn = await this.beginCreate(obj, p.dryRun === true);
    let out: KubeObject;
    try {
      out = await super.create(namespace, obj, p);
    } catch (err) {
      await txn.revert();
      throw err;
    }
    await txn.commit();
    return this.decorate(out);
  }

  private async beginCreate(obj: KubeObject, dryRun: boolean): Promise<Transaction> {
    const svc = asView(obj);
    // clusterIP and clusterIPs must agree before anyone looks at them.
    normalizeClusterIPs(svc, null);
    return this.allocators.allocateCreate(svc, dryRun);
  }

  /**
   * BeginUpdate on `current` (the stored object, defaulted in place so ValidateUpdate sees the
   * same `old` as upstream); the allocation works on a copy so later strategy edits of `obj`
   * never alias it.
   */
  private async beginUpdate(obj: KubeObject, current: KubeObject, dryRun: boolean): Promise<Transaction> {
    this.decorate(current);
    const old = asView(structuredClone(current));
    const svc = asView(obj);
    patchAllocatedValues(svc, old);
    normalizeClusterIPs(svc, old);
    return this.allocators.allocateUpdate(svc, old, dryRun);
  }

  /**
   * PUT and every patch. The allocation happens inside the update function, after the desired
   * object is known and before the strategy validates it; a compare-and-swap retry calls the
   * function again, so the previous attempt's allocation is reverted first. Only the outcome of
   * the final attempt is committed (deferred releases happen then) or reverted.
   */
  override async update(
    namespace: string | undefined,
    name: string,
    objInfo: UpdatedObjectInfo,
    p: UpdateParams = {},
  ): Promise<UpdateResult> {
    const dryRun = p.dryRun === true;
    const subresource = p.subresource ?? "";
    const pending: { txn: Transaction | null } = { txn: null };
    const undo = (): Promise<void> => this.finish(pending, false);
    const wrapped: UpdatedObjectInfo = async (current) => {
      await undo();
      const obj = await objInfo(current);
      // Upstream's status store has no BeginCreate/BeginUpdate: status writes never allocate.
      if (subresource !== "") return obj;
      if (current === null) {
        // Create-on-update (server-side apply): the owner's name and namespace come from the URL.
        obj.metadata.name ??= name;
        this.initCreateMetadata(obj, namespace);
      }
      pending.txn = current === null ? await this.beginCreate(obj, dryRun) : await this.beginUpdate(obj, current, dryRun);
      return obj;
    };
    const tracker: WriteTracker = { written: false };
    let result: UpdateResult;
    try {
      result = await writeTrackers.run(tracker, () => super.update(namespace, name, wrapped, p));
    } catch (err) {
      // Written, then failed (the delete after the last finalizer went): the allocation is stored.
      await this.finish(pending, tracker.written);
      throw err;
    }
    await this.finish(pending, true);
    return { ...result, object: this.decorate(result.object) };
  }

  private async finish(pending: { txn: Transaction | null }, success: boolean): Promise<void> {
    const t = pending.txn;
    pending.txn = null;
    if (t) await (success ? t.commit() : t.revert());
  }

  /** Delete; the storage hook releases IPs and ports once the object is really gone (not just marked). */
  override async delete(namespace: string | undefined, name: string, p: DeleteParams = {}): Promise<DeleteResult> {
    const res = await super.delete(namespace, name, p);
    return { ...res, object: this.decorate(res.object) };
  }

  /** AfterDelete (non-dry-run): the Endpoints object goes, then every IP, NodePort and the HCNP. */
  private async afterDelete(obj: KubeObject): Promise<void> {
    const svc = asView(this.decorate(structuredClone(obj)));
    if (this.#deleteEndpoints) {
      try {
        await this.#deleteEndpoints(obj.metadata.namespace ?? "", obj.metadata.name ?? "");
      } catch (err) {
        // NotFound is the usual answer; anything else is left for the endpoints controller.
        this.#log("info", "deleting endpoints of deleted service", { service: obj.metadata.name, error: String(err) });
      }
    }
    await this.allocators.releaseAllocatedResources(svc);
  }
}
