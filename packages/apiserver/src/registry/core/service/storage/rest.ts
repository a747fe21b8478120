/**
 * The Service REST storage (upstream pkg/registry/core/service/storage/storage.go NewREST): the
 * generic store configured with hooks. BeginCreate/BeginUpdate normalise clusterIP(s) and allocate
 * ClusterIPs and NodePorts before the strategy validates and the object is persisted; their finish
 * commits the allocation once the write succeeded and reverts it on any failure or retry;
 * AfterDelete releases everything the Service held; the Decorator applies defaultOnReadService so
 * legacy objects show ipFamilies/ipFamilyPolicy.
 */
import { field, isValidPathSegmentName, type Service, StatusError, validateObjectMeta, validateServiceName } from "@servicenet/api";
import { deepCopy, type KubeObject, type Store } from "../../../../storage/index.ts";
import type { FinishFunc } from "../../../generic/hooks.ts";
import type { UpdateParams, WriteParams } from "../../../generic/options.ts";
import { GenericStore, type GenericStoreConfig } from "../../../generic/store.ts";
import type { Allocators } from "./alloc.ts";
import { V, type Logger } from "@servicenet/component-base/logs";
import { defaultOnReadService, normalizeClusterIPs, patchAllocatedValues } from "./normalize.ts";
import { restoreServiceAllocations, type RestoreReport } from "./startup.ts";
import type { Transaction } from "./transaction.ts";

export interface ServiceRESTOptions {
  /** The cluster's IP allocators per family and the NodePort allocator. */
  allocators: Allocators;
  /** Deletes the Endpoints object of a deleted Service (upstream afterDelete); optional. */
  deleteEndpoints?: (namespace: string, name: string) => Promise<void>;
  /** Where startup restore and best-effort clean-up log; default the allocators' logger. */
  logger?: Logger;
}

const asView = (o: KubeObject): Service => o as unknown as Service;

/**
 * Upstream validates after it allocates, and the IPAddress allocator records the Service's name
 * as its parentRef.name, which must be a path segment: a name that is not one fails here with the
 * name's validation errors (422) instead of the allocator's 500. Every other name is validated
 * once, by the strategy, after allocation (a failure there reverts the allocation).
 */
function rejectUnrecordableName(name: string | undefined): void {
  if (!name)
    throw StatusError.invalid({ group: "", kind: "Service" }, "", [field.required("metadata.name", "name or generateName is required")]);
  if (isValidPathSegmentName(name).length === 0) return;
  const nameErrors = validateObjectMeta({ name }, { namespaced: true, nameValidator: validateServiceName }).filter(
    (e) => e.field === "metadata.name",
  );
  throw StatusError.invalid({ group: "", kind: "Service" }, name, nameErrors);
}

/** The hook's finish for an allocation transaction (upstream beginCreate's `finish`). */
function finishTransaction(txn: Transaction): FinishFunc {
  return (success) => (success ? txn.commit() : txn.revert());
}

/** Service storage: a GenericStore with upstream's BeginCreate/BeginUpdate/AfterDelete/Decorator. */
export class ServiceREST extends GenericStore {
  readonly allocators: Allocators;
  readonly #deleteEndpoints: ServiceRESTOptions["deleteEndpoints"];
  readonly #log: Logger;
  #restored: RestoreReport | null = null;

  constructor(store: Store, config: GenericStoreConfig, opts: ServiceRESTOptions) {
    super(store, config);
    this.allocators = opts.allocators;
    this.#deleteEndpoints = opts.deleteEndpoints;
    this.#log = opts.logger ?? opts.allocators.logger;
    this.hooks.beginCreate = (obj, p) => this.#beginCreate(obj, p);
    this.hooks.beginUpdate = (obj, old, p) => this.#beginUpdate(obj, old, p);
    this.hooks.afterDelete = (obj) => this.#afterDelete(obj);
    this.hooks.decorator = (obj) => this.#defaultOnRead(obj);
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
    const { items } = await this.list(undefined, {});
    this.#restored = await restoreServiceAllocations(this.allocators, items.map(asView), this.#log);
    return this.#restored;
  }

  /** Read-time defaulting of a stored object (upstream's Decorator defaultOnRead), in place. */
  #defaultOnRead(obj: KubeObject): void {
    defaultOnReadService(asView(obj), this.allocators.defaultServiceIPFamily);
  }

  /** BeginCreate: the name the allocators record must be usable; normalise, then allocate. */
  async #beginCreate(obj: KubeObject, p: WriteParams): Promise<FinishFunc> {
    rejectUnrecordableName(obj.metadata.name);
    const svc = asView(obj);
    // clusterIP and clusterIPs must agree before anyone looks at them.
    normalizeClusterIPs(svc, null);
    return finishTransaction(await this.allocators.allocateCreate(svc, p.dryRun === true));
  }

  /**
   * BeginUpdate on `current` (the stored object, defaulted in place so ValidateUpdate sees the
   * same `old` as upstream); the allocation works on a copy so later strategy edits of `obj`
   * never alias it.
   */
  async #beginUpdate(obj: KubeObject, current: KubeObject, p: UpdateParams): Promise<FinishFunc> {
    this.#defaultOnRead(current);
    const old = asView(copyForAllocation(current));
    const svc = asView(obj);
    // Fix up allocated values the client may have left out (idempotence), then sync clusterIP(s).
    patchAllocatedValues(svc, old);
    normalizeClusterIPs(svc, old);
    return finishTransaction(await this.allocators.allocateUpdate(svc, old, p.dryRun === true));
  }

  /** AfterDelete (non-dry-run): the Endpoints object goes, then every IP, NodePort and the HCNP. */
  async #afterDelete(obj: KubeObject): Promise<void> {
    const copy = deepCopy(obj);
    this.#defaultOnRead(copy);
    if (this.#deleteEndpoints) {
      try {
        await this.#deleteEndpoints(obj.metadata.namespace ?? "", obj.metadata.name ?? "");
      } catch (err) {
        // NotFound is the usual answer; anything else is left for the endpoints controller.
        V(this.#log, 2).info("deleting endpoints of deleted service", { service: obj.metadata.name, error: String(err) });
      }
    }
    await this.allocators.releaseAllocatedResources(asView(copy));
  }
}

/**
 * The old object the allocators see in BeginUpdate: a copy, so that values patchAllocatedValues
 * carries over to the new object never alias the stored one the strategy compares against.
 * Allocation reads and writes spec and status only; metadata's maps (labels, annotations,
 * managedFields, 60,000 entries on a near-limit object) are shared, read-only, not copied.
 */
function copyForAllocation(current: KubeObject): KubeObject {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current)) out[k] = k === "metadata" ? { ...current.metadata } : deepCopy(v);
  return out as KubeObject;
}
