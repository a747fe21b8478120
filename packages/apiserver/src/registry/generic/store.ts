/**
 * The generic REST store (k8s.io/apiserver/pkg/registry/generic/registry/store.go): get, list,
 * watch, create, update, delete and deletecollection over a storage `Store`, with the resource's
 * strategy deciding what may change and what is valid.
 */
import { randomUUID } from "node:crypto";
import { field, GoValue, StatusError, type FieldError } from "@servicenet/api";
import {
  deepCopy,
  objectKey,
  resourcePrefix,
  withGroupResource,
  type KubeObject,
  type ListResult,
  type Preconditions,
  type Predicate,
  type Store,
  type WatchEvent,
} from "../../storage/index.ts";
import { beforeDelete } from "../rest/delete.ts";
import { deletionFinalizersForGarbageCollection, markAsDeleting, type GarbageCollectionPolicy } from "./gc-finalizers.ts";
import { finishNothing, type FinishFunc, type StoreHooks } from "./hooks.ts";
import { generateName, nowRFC3339 } from "./names.ts";
import { TurnBudget } from "../../util/eventloop/turn-budget.ts";
import type {
  DeleteParams,
  DeleteResult,
  ListParams,
  UpdatedObjectInfo,
  UpdateParams,
  UpdateResult,
  WatchParams,
  WriteParams,
} from "./options.ts";
import { checkSupportedFields, matchesFields, type FieldSelector } from "./selection/fields.ts";
import { matchesLabels, type LabelSelector } from "./selection/labels.ts";
import type { RESTStrategy } from "./strategy.ts";

export interface GenericStoreConfig {
  group: string;
  /** Plural resource name (`services`). */
  resource: string;
  /** Storage path under /registry (`services/specs`). */
  storagePath: string;
  strategy: RESTStrategy;
  /** Admission before a create of `obj` in `namespace` (NamespaceLifecycle): throw to reject. */
  admitCreate?: (namespace: string, obj: KubeObject) => Promise<void>;
  /** Told of every delete request before it acts (namespace admission stops trusting its cache). */
  onDeleteRequest?: (namespace: string | undefined, name: string) => void;
  /**
   * A further condition before an update that left a deleting object without finalizers deletes
   * it (upstream Store.ShouldDeleteDuringUpdate; namespaces also wait for spec.finalizers).
   */
  shouldDeleteDuringUpdate?: (obj: KubeObject) => boolean;
  /** Begin/After hooks and the Decorator (see hooks.ts); a subclass may also set them on `hooks`. */
  hooks?: StoreHooks;
}

/** One resource's REST storage. */
export class GenericStore {
  readonly config: GenericStoreConfig;
  readonly strategy: RESTStrategy;
  /** Upstream's Store hook fields; set them before the store serves its first request. */
  readonly hooks: StoreHooks;
  private readonly store: Store;

  constructor(store: Store, config: GenericStoreConfig) {
    this.config = config;
    this.strategy = config.strategy;
    this.hooks = { ...config.hooks };
    this.store = withGroupResource(store, { group: config.group, resource: config.resource });
  }

  private key(namespace: string | undefined, name: string): string {
    return objectKey(this.config.storagePath, this.strategy.namespaced ? namespace : undefined, name);
  }

  private prefix(namespace: string | undefined): string {
    return resourcePrefix(this.config.storagePath, this.strategy.namespaced && namespace ? namespace : undefined);
  }

  /** rest.BeforeCreate/BeforeUpdate: NewInvalid qualified with the object's own kind (ObjectKinds), else the strategy's. */
  private invalid(name: string, errs: FieldError[], obj?: KubeObject): StatusError {
    const kind = typeof obj?.kind === "string" && obj.kind !== "" ? obj.kind : this.strategy.kind;
    return StatusError.invalid({ group: this.strategy.group, kind }, name, errs);
  }

  /** The field-selector attributes of an object (metadata.name, metadata.namespace and the strategy's). */
  fieldsOf(obj: KubeObject): Record<string, string> {
    const base: Record<string, string> = { "metadata.name": obj.metadata.name ?? "" };
    if (this.strategy.namespaced) base["metadata.namespace"] = obj.metadata.namespace ?? "";
    return { ...base, ...(this.strategy.selectableFields?.(obj) ?? {}) };
  }

  /** Builds the store predicate; rejects unsupported field labels with 400. */
  predicate(labels: LabelSelector | undefined, fields: FieldSelector | undefined): Predicate | undefined {
    if (fields && fields.length > 0) {
      const names = new Set([
        "metadata.name",
        ...(this.strategy.namespaced ? ["metadata.namespace"] : []),
        ...(this.strategy.selectableFieldNames ?? []),
      ]);
      checkSupportedFields(fields, names);
    }
    const hasL = labels !== undefined && labels.length > 0;
    const hasF = fields !== undefined && fields.length > 0;
    if (!hasL && !hasF) return undefined;
    return (obj) =>
      (!hasL || matchesLabels(labels, obj.metadata["labels"] as Record<string, string> | undefined)) &&
      (!hasF || matchesFields(fields, this.fieldsOf(obj)));
  }

  /** Applies the Decorator hook, if any, to `obj` in place; returns `obj`. */
  protected decorate(obj: KubeObject): KubeObject {
    this.hooks.decorator?.(obj);
    return obj;
  }

  /** upstream Store.Get; `shareLarge` as the storage's GetOptions (for callers that only read the object, as the GET handler). */
  async get(namespace: string | undefined, name: string, resourceVersion?: string, shareLarge = false): Promise<KubeObject> {
    const opts = { ...(resourceVersion !== undefined ? { resourceVersion } : {}), ...(shareLarge ? { shareLarge } : {}) };
    return this.decorate(await this.store.get(this.key(namespace, name), opts));
  }

  async list(namespace: string | undefined, p: ListParams = {}): Promise<ListResult> {
    const predicate = this.predicate(p.labelSelector, p.fieldSelector);
    const res = await this.store.list(this.prefix(namespace), {
      ...(p.resourceVersion !== undefined ? { resourceVersion: p.resourceVersion } : {}),
      ...(p.resourceVersionMatch ? { resourceVersionMatch: p.resourceVersionMatch } : {}),
      ...(p.limit ? { limit: p.limit } : {}),
      ...(p.continue ? { continue: p.continue } : {}),
      ...(predicate ? { predicate } : {}),
      ...(p.readOnly ? { readOnly: true } : {}),
    });
    if (this.hooks.decorator) for (const item of res.items) this.hooks.decorator(item);
    return res;
  }

  watch(namespace: string | undefined, p: WatchParams = {}): AsyncIterable<WatchEvent> {
    const predicate = this.predicate(p.labelSelector, p.fieldSelector);
    return this.store.watch(this.prefix(namespace), {
      recursive: true,
      ...(p.resourceVersion !== undefined ? { resourceVersion: p.resourceVersion } : {}),
      ...(predicate ? { predicate } : {}),
      ...(p.allowBookmarks ? { allowBookmarks: true } : {}),
      ...(p.deadline !== undefined ? { deadline: p.deadline } : {}),
      ...(p.signal ? { signal: p.signal } : {}),
      ...(p.readOnly ? { readOnly: true } : {}),
      ...this.watchDecorator(p.decorate),
    });
  }

  /**
   * The Decorator applied as the storage delivers each event, not by a generator around the
   * watch: one async step per event and watcher less.
   */
  private watchDecorator(extra: WatchParams["decorate"]): { decorate?: (obj: KubeObject) => void } {
    const own = this.hooks.decorator;
    if (!own) return extra ? { decorate: extra } : {};
    if (!extra) return { decorate: own };
    return {
      decorate: (o) => {
        own(o);
        extra(o);
      },
    };
  }

  /** Namespace from the URL onto the object; mismatches are BadRequest as upstream. */
  private placeInNamespace(obj: KubeObject, namespace: string | undefined): void {
    if (!this.strategy.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    const own = obj.metadata.namespace ?? "";
    if (own !== "" && namespace !== undefined && own !== namespace) {
      throw StatusError.badRequest("the namespace of the provided object does not match the namespace sent on the request");
    }
    if (namespace !== undefined) obj.metadata.namespace = namespace;
  }

  /**
   * Upstream Store.Create's "init metadata as early as possible": the request namespace and a
   * generated name are in place before BeginCreate hooks run (allocators record the owner).
   */
  protected initCreateMetadata(obj: KubeObject, namespace: string | undefined): void {
    this.placeInNamespace(obj, namespace);
    const meta = obj.metadata;
    if (!meta.name && typeof meta["generateName"] === "string" && meta["generateName"] !== "")
      meta.name = generateName(meta["generateName"]);
  }

  /** upstream rest.BeforeCreate: system fields, strategy, validation (metadata was initialised first). */
  private async beforeCreate(obj: KubeObject, warnings?: string[]): Promise<void> {
    const meta = obj.metadata;
    for (const k of ["uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"] as const) delete meta[k];
    delete meta.resourceVersion;
    // metav1.FillObjectMetaSystemFields: the UID exists before PrepareForCreate (a Job's
    // generated selector and Pod labels carry it).
    meta.creationTimestamp = nowRFC3339();
    meta.uid = randomUUID();
    // rest.BeforeCreate leaves metadata.generation alone: only strategies that track it set it
    // (EndpointSlice and Pod set 1); other kinds store what was sent, normally nothing.
    this.strategy.prepareForCreate(obj);
    const errs = this.strategy.validate(obj);
    if (errs.length > 0) throw this.invalid(meta.name ?? "", errs, obj);
    addWarnings(warnings, this.strategy.warningsOnCreate?.(obj));
    const canonical = this.strategy.canonicalize?.(obj);
    if (canonical !== undefined) await canonical;
  }

  /** upstream Store.Create: metadata, BeginCreate, BeforeCreate, admission, write, finish, AfterCreate, Decorator. */
  async create(namespace: string | undefined, obj: KubeObject, p: WriteParams = {}): Promise<KubeObject> {
    // Validating a near-limit object is long: others run before and after it.
    const budget = new TurnBudget();
    this.initCreateMetadata(obj, namespace);
    const finish = this.hooks.beginCreate ? await this.hooks.beginCreate(obj, p) : finishNothing;
    let out: KubeObject;
    try {
      await budget.maybeYield();
      await this.beforeCreate(obj, p.warnings);
      await budget.maybeYield();
      if (this.strategy.namespaced && this.config.admitCreate) await this.config.admitCreate(obj.metadata.namespace ?? "", obj);
      await p.createValidation?.(obj);
      out = await this.store.create(this.key(obj.metadata.namespace, obj.metadata.name ?? ""), obj, p.dryRun ? { dryRun: true } : {});
    } catch (err) {
      await finish(false);
      throw err;
    }
    await finish(true);
    this.hooks.afterCreate?.(out, p);
    return this.decorate(out);
  }

  /** upstream rest.BeforeUpdate for the main resource or a subresource. */
  private async beforeUpdate(obj: KubeObject, old: KubeObject, subresource: string, warnings?: string[]): Promise<void> {
    const meta = obj.metadata;
    // rest.BeforeUpdate: an update never changes these; a patch that removed metadata keeps them.
    if (!meta.uid) meta.uid = old.metadata.uid;
    if (old.metadata.creationTimestamp !== undefined) meta.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.deletionTimestamp !== undefined) meta.deletionTimestamp = old.metadata.deletionTimestamp;
    if (old.metadata["deletionGracePeriodSeconds"] !== undefined)
      meta["deletionGracePeriodSeconds"] ??= old.metadata["deletionGracePeriodSeconds"];
    meta.generation = old.metadata.generation;
    let errs: FieldError[];
    const found: string[] = [];
    if (subresource !== "") {
      const sub = this.strategy.subresources?.[subresource];
      if (!sub)
        throw StatusError.notFound({ group: this.config.group, resource: `${this.config.resource}/${subresource}` }, meta.name ?? "");
      sub.prepareForUpdate(obj, old);
      errs = sub.validateUpdate(obj, old, found);
    } else {
      this.strategy.prepareForUpdate(obj, old);
      errs = this.strategy.validateUpdate(obj, old, found);
    }
    addWarnings(warnings, found);
    if (errs.length > 0) throw this.invalid(meta.name ?? "", errs, obj);
    if (subresource === "") addWarnings(warnings, this.strategy.warningsOnUpdate?.(obj, old));
    const canonical = this.strategy.canonicalize?.(obj);
    if (canonical !== undefined) await canonical;
  }

  async update(namespace: string | undefined, name: string, objInfo: UpdatedObjectInfo, p: UpdateParams = {}): Promise<UpdateResult> {
    const key = this.key(namespace, name);
    const subresource = p.subresource ?? "";
    let created = false;
    // The Begin hook's finish of the attempt in flight; a retry finishes it with false first.
    let finish: FinishFunc = finishNothing;
    const settle = (success: boolean): Promise<void> => {
      const f = finish;
      finish = finishNothing;
      return f(success);
    };
    // Validating a near-limit object is long: others run before and after it.
    const budget = new TurnBudget();
    const tryUpdate = async (stored: KubeObject): Promise<KubeObject> => {
      await settle(false);
      const exists = stored.metadata.name !== undefined;
      // Read in this endpoint's version: storage compares what it encodes back with the stored
      // bytes, so a change the decoding made (a default) is written, as upstream's codec does.
      const current = exists && this.strategy.decode ? await this.strategy.decode(stored) : stored;
      const obj = await objInfo(exists ? current : null);
      await budget.maybeYield();
      if ((obj.metadata.name ?? name) !== name) {
        throw StatusError.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
      }
      obj.metadata.name = name;
      if (!exists) {
        if (!(this.strategy.allowCreateOnUpdate || p.forceAllowCreate) || subresource !== "") {
          throw StatusError.notFound({ group: this.config.group, resource: this.config.resource }, name);
        }
        this.initCreateMetadata(obj, namespace);
        if (this.hooks.beginCreate) finish = await this.hooks.beginCreate(obj, p);
        await this.beforeCreate(obj, p.warnings);
        if (this.strategy.namespaced && this.config.admitCreate) await this.config.admitCreate(obj.metadata.namespace ?? "", obj);
        await p.createValidation?.(obj);
        created = true;
        return obj;
      }
      created = false;
      this.placeInNamespace(obj, namespace);
      if (!obj.metadata.resourceVersion) {
        if (!this.strategy.allowUnconditionalUpdate) {
          // Upstream Store.Update names the resource as the kind (see its TODO about #18526) and
          // prints the uint64 0 with %#v.
          throw StatusError.invalid({ group: this.config.group, kind: this.config.resource }, name, [
            field.invalid("metadata.resourceVersion", new GoValue("0x0"), "must be specified for an update"),
          ]);
        }
        obj.metadata.resourceVersion = current.metadata.resourceVersion;
      }
      if (subresource === "" && this.hooks.beginUpdate) finish = await this.hooks.beginUpdate(obj, current, p);
      await budget.maybeYield();
      await this.beforeUpdate(obj, current, subresource, p.warnings);
      await budget.maybeYield();
      await p.updateValidation?.(obj, current);
      return obj;
    };
    let updated: KubeObject;
    try {
      updated = await this.store.guaranteedUpdate(key, tryUpdate, {
        ignoreNotFound: true,
        ...(p.preconditions ? { preconditions: p.preconditions } : {}),
        ...(p.dryRun ? { dryRun: true } : {}),
      });
    } catch (err) {
      await settle(false);
      throw err;
    }
    // Written: whatever follows (the delete after the last finalizer) cannot undo the allocation.
    await settle(true);
    if (created) this.hooks.afterCreate?.(updated, p);
    else this.hooks.afterUpdate?.(updated, p);
    // The last finalizer removed from a deleting object: it goes now (upstream deleteWithoutFinalizers).
    if (
      !created &&
      updated.metadata.deletionTimestamp !== undefined &&
      ((updated.metadata["deletionGracePeriodSeconds"] as number | undefined) ?? 0) === 0 &&
      finalizersOf(updated).length === 0 &&
      (this.config.shouldDeleteDuringUpdate?.(updated) ?? true)
    ) {
      const gone = await this.reallyDelete(key, updated, {
        preconditions: { resourceVersion: updated.metadata.resourceVersion ?? "" },
        ...(p.dryRun ? { dryRun: true } : {}),
      });
      return { object: this.decorate(gone), created: false };
    }
    return { object: this.decorate(updated), created };
  }

  /**
   * A compare-and-swap on the stored object with no strategy in between (upstream's
   * `e.Storage.GuaranteedUpdate`, used by subresources such as pods/binding).
   */
  async storageGuaranteedUpdate(
    namespace: string | undefined,
    name: string,
    tryUpdate: (current: KubeObject) => KubeObject,
    opts: { preconditions?: Preconditions; dryRun?: boolean } = {},
  ): Promise<KubeObject> {
    return this.store.guaranteedUpdate(this.key(namespace, name), tryUpdate, opts);
  }

  /** The storage delete, then AfterDelete (upstream calls it on every path that really deletes). */
  private async reallyDelete(key: string, current: KubeObject, p: DeleteParams): Promise<KubeObject> {
    const gone = await this.store.delete(key, {
      ...(p.preconditions ? { preconditions: p.preconditions } : {}),
      ...(p.dryRun ? { dryRun: true } : {}),
      cachedExisting: current,
    });
    if (!p.dryRun && this.hooks.afterDelete) await this.hooks.afterDelete(gone, p);
    return gone;
  }

  /**
   * upstream Store.Delete: `beforeDelete` decides whether the kind deletes gracefully (pods:
   * deletionTimestamp + grace period, removed by a later DELETE with grace 0); the garbage
   * collector's finalizers (`orphan`, `foregroundDeletion`) are set as the options and the
   * resource's default policy decide; an object left with any finalizer is only marked deleting
   * and stays until its finalizers are removed; anything else is deleted now.
   */
  async delete(namespace: string | undefined, name: string, p: DeleteParams = {}): Promise<DeleteResult> {
    const res = await this.deleteStored(namespace, name, p);
    return { ...res, object: this.decorate(res.object) };
  }

  private async deleteStored(namespace: string | undefined, name: string, p: DeleteParams): Promise<DeleteResult> {
    if (!p.dryRun) this.config.onDeleteRequest?.(namespace, name);
    const key = this.key(namespace, name);
    const current = await this.store.get(key);
    // Upstream runs deleteValidation inside the storage delete (or the finalizer update) on the
    // object it is about to remove, decoded by the storage codec into this endpoint's version
    // (etcd3 store.Delete's getState); here once, on the object read for the delete.
    if (p.deleteValidation) await p.deleteValidation(this.strategy.decode ? await this.strategy.decode(deepCopy(current)) : current);
    const first = beforeDelete(this.strategy, deepCopy(current), { gracePeriodSeconds: p.gracePeriodSeconds });
    // Finalizers cannot be changed through DeleteOptions while a graceful deletion is pending.
    if (first.gracefulPending) return { object: current, deleted: false };
    const policy = this.strategy.defaultGarbageCollectionPolicy ?? "DeleteDependents";
    const gc = deletionFinalizersForGarbageCollection(policy, current.metadata, p);
    const pending = finalizersOf(current).length > 0;
    if (!first.graceful && !pending && !gc.changed) return { object: await this.reallyDelete(key, current, p), deleted: true };
    return this.updateForGracefulDeletionAndFinalizers(key, current, policy, p);
  }

  /**
   * `updateForGracefulDeletionAndFinalizers`: one compare-and-swap sets the finalizers and marks
   * the object deleting (gracefully, or with grace 0 when finalizers hold it); the object is then
   * removed unless finalizers or a grace period keep it (errDeleteNow / errAlreadyDeleting paths).
   */
  private async updateForGracefulDeletionAndFinalizers(
    key: string,
    current: KubeObject,
    policy: GarbageCollectionPolicy,
    p: DeleteParams,
  ): Promise<DeleteResult> {
    // Set by the compare-and-swap callback (its last run decides).
    const st: { outcome: "deleteNow" | "alreadyDeleting" | "marked"; pendingFinalizers: boolean; lastGraceful: number } = {
      outcome: "marked",
      pendingFinalizers: false,
      lastGraceful: 0,
    };
    const marked = await this.store.guaranteedUpdate(
      key,
      (cur) => {
        const next = deepCopy(cur);
        const options = { gracePeriodSeconds: p.gracePeriodSeconds };
        st.pendingFinalizers = false;
        st.lastGraceful = 0;
        const r = beforeDelete(this.strategy, next, options);
        if (r.gracefulPending) {
          st.outcome = "alreadyDeleting";
          return cur;
        }
        const gc = deletionFinalizersForGarbageCollection(policy, next.metadata, p);
        if (gc.changed) setFinalizers(next, gc.finalizers);
        st.pendingFinalizers = finalizersOf(next).length > 0;
        if (!r.graceful) {
          if (!st.pendingFinalizers) {
            st.outcome = "deleteNow";
            return cur;
          }
          markAsDeleting(next);
        }
        st.outcome = "marked";
        st.lastGraceful = r.graceful ? (options.gracePeriodSeconds ?? 0) : 0;
        return next;
      },
      { ...(p.preconditions ? { preconditions: p.preconditions } : {}), ...(p.dryRun ? { dryRun: true } : {}), cachedExisting: current },
    );
    if (st.outcome === "alreadyDeleting" || st.pendingFinalizers || st.lastGraceful > 0) return { object: marked, deleted: false };
    if (st.outcome === "marked" && p.dryRun) return { object: marked, deleted: true };
    const preconditions =
      st.outcome === "marked" && p.preconditions?.resourceVersion !== undefined
        ? { ...p.preconditions, resourceVersion: marked.metadata.resourceVersion ?? "" }
        : p.preconditions;
    try {
      return { object: await this.reallyDelete(key, marked, { ...p, ...(preconditions ? { preconditions } : {}) }), deleted: true };
    } catch (e) {
      // Deleted with grace 0 after the mark: another deleter (a kubelet) may have won the race.
      if (st.outcome === "marked" && e instanceof StatusError && e.reason === "NotFound") return { object: marked, deleted: true };
      throw e;
    }
  }

  async deleteCollection(namespace: string | undefined, listParams: ListParams, p: DeleteParams = {}): Promise<KubeObject[]> {
    const { items } = await this.list(namespace, listParams);
    const out: KubeObject[] = [];
    for (const item of items) {
      try {
        out.push((await this.delete(item.metadata.namespace, item.metadata.name ?? "", p)).object);
      } catch (e) {
        // Someone else deleted it in between: that is the outcome we wanted.
        if (!(e instanceof StatusError && e.reason === "NotFound")) throw e;
      }
    }
    return out;
  }
}

function finalizersOf(obj: KubeObject): string[] {
  return (obj.metadata["finalizers"] as string[] | undefined) ?? [];
}

/** Sets metadata.finalizers, dropping the field when empty (Go's omitempty). */
function setFinalizers(obj: KubeObject, finalizers: string[]): void {
  if (finalizers.length > 0) obj.metadata["finalizers"] = finalizers;
  else delete obj.metadata["finalizers"];
}

/** Appends the messages `sink` does not hold yet (upstream's warning recorder dedupes). */
function addWarnings(sink: string[] | undefined, warnings: readonly string[] | undefined): void {
  if (!sink || !warnings) return;
  for (const w of warnings) if (!sink.includes(w)) sink.push(w);
}
