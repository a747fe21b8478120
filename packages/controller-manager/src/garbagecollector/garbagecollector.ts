/**
 * The garbage collector (upstream pkg/controller/garbagecollector/garbagecollector.go): workers
 * on attemptToDelete decide, from live GETs, whether an object's owners are all gone (delete it,
 * background unless its finalizers say otherwise), some waiting in foreground deletion (delete it
 * in foreground, or drop the references), or some still there (drop only the dangling
 * references); owners in foreground deletion lose the foregroundDeletion finalizer once no
 * blocking dependent is left. Workers on attemptToOrphan strip the owner reference from every
 * dependent, then remove the orphan finalizer.
 */
import { finalizerDeleteDependents, finalizerOrphanDependents, type OwnerReference } from "@servicenet/api";
import { isNotFound } from "@servicenet/client/errors";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import type { AbsentOwnerCache, GraphBuilder, MetaObject } from "./graph-builder.ts";
import { referenceString, type GraphNode, type ObjectReference } from "./graph.ts";
import type { Operations } from "./operations.ts";

/** The item was confirmed absent and removed from the graph: nothing to retry. */
export const enqueuedVirtualDeleteEvent = "enqueuedVirtualDeleteEvent";
/** A cluster-scoped object naming a namespaced owner: retrying cannot help. */
export const namespacedOwnerOfClusterScopedObject = "namespacedOwnerOfClusterScopedObject";

class NamespacedOwnerOfClusterScopedObjectError extends Error {
  override readonly name = "NamespacedOwnerOfClusterScopedObjectError";
}

/** A virtual node that still has no informer event: requeued with backoff (upstream requeueItem). */
export class VirtualNodeNotObservedError extends Error {
  override readonly name = "VirtualNodeNotObservedError";
}

export type DeleteOutcome = undefined | typeof enqueuedVirtualDeleteEvent | typeof namespacedOwnerOfClusterScopedObject;

interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waiting: OwnerReference[];
}

const hasFinalizer = (o: MetaObject, f: string) => (o.metadata.finalizers ?? []).includes(f);

export class GarbageCollector {
  readonly #graph: GraphBuilder;
  readonly #ops: Operations;
  readonly #absent: AbsentOwnerCache;
  readonly #log: Logger;

  constructor(graph: GraphBuilder, ops: Operations, absent: AbsentOwnerCache, logger: Logger = noopLogger) {
    this.#graph = graph;
    this.#ops = ops;
    this.#absent = absent;
    this.#log = logger;
  }

  /** attemptToDeleteWorker for the node with `uid`; throws to requeue with backoff. */
  async attemptToDeleteWorker(uid: string): Promise<void> {
    const n = this.#graph.uidToNode.read(uid);
    if (n === undefined) return; // removed from the graph meanwhile
    const outcome = await this.attemptToDeleteItem(n);
    if (outcome !== undefined) return;
    // The node is still virtual (its owner exists but no informer showed it): look again later.
    if (!n.isObserved()) throw new VirtualNodeNotObservedError(`item ${referenceString(n.identity)} hasn't been observed via informer yet`);
  }

  /** attemptToDeleteItem. */
  async attemptToDeleteItem(item: GraphNode): Promise<DeleteOutcome> {
    V(this.#log, 2).info("Processing item", { item: referenceString(item.identity), virtual: !item.isObserved() });
    // Being deleted is a one-way trip: its dependents are processed when the deletion is observed.
    if (item.beingDeleted && !item.deletingDependents) return undefined;
    let latest: MetaObject;
    try {
      latest = await this.#ops.getObject(item.identity);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.#graph.enqueueVirtualDeleteEvent(item.identity);
      return enqueuedVirtualDeleteEvent;
    }
    if (latest.metadata.uid !== item.identity.uid) {
      this.#graph.enqueueVirtualDeleteEvent(item.identity);
      return enqueuedVirtualDeleteEvent;
    }
    if (item.deletingDependents) {
      await this.#processDeletingDependentsItem(item);
      return undefined;
    }
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return undefined;
    let c: Classified;
    try {
      c = await this.#classifyReferences(item, refs);
    } catch (err) {
      if (err instanceof NamespacedOwnerOfClusterScopedObjectError) return namespacedOwnerOfClusterScopedObject;
      throw err;
    }
    if (c.solid.length > 0) {
      if (c.dangling.length === 0 && c.waiting.length === 0) return undefined;
      // References to owners waiting for their dependents go too, or those owners would wait forever.
      const uids = [...c.dangling, ...c.waiting].map((r) => r.uid);
      V(this.#log, 2).info("remove dangling references and waiting references for item", { item: referenceString(item.identity), uids });
      await this.#ops.removeOwnerReferences(item.identity, uids);
      return undefined;
    }
    const rv = latest.metadata.resourceVersion ?? "";
    if (c.waiting.length > 0 && item.dependents.size > 0) {
      for (const dep of item.dependents) {
        if (!dep.deletingDependents) continue;
        // A possible cycle: make this item's references non-blocking before deleting it in foreground.
        await this.#ops.unblockOwnerReferences(item.identity);
        break;
      }
      V(this.#log, 2).info(
        "at least one owner of object has FinalizerDeletingDependents, and the object itself has dependents, so it is going to be deleted in Foreground",
        { item: referenceString(item.identity) },
      );
      await this.#ops.deleteObject(item.identity, rv, refs, "Foreground");
      return undefined;
    }
    // No solid owner and nobody waiting: collect it, honouring a finalizer it already has.
    const policy = hasFinalizer(latest, finalizerOrphanDependents)
      ? "Orphan"
      : hasFinalizer(latest, finalizerDeleteDependents)
        ? "Foreground"
        : "Background";
    V(this.#log, 2).info("Deleting item", { item: referenceString(item.identity), propagationPolicy: policy });
    await this.#ops.deleteObject(item.identity, rv, refs, policy);
    return undefined;
  }

  // processDeletingDependentsItem: the foregroundDeletion finalizer goes once no blocking dependent is left.
  async #processDeletingDependentsItem(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      V(this.#log, 2).info("remove DeleteDependents finalizer for item", { item: referenceString(item.identity) });
      await this.#ops.removeFinalizer(item.identity, finalizerDeleteDependents);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.#graph.enqueueAttemptToDelete(dep.identity.uid);
  }

  // classifyReferences: solid (owner there, not waiting), dangling (absent), waiting (foreground-deleting).
  async #classifyReferences(item: GraphNode, refs: readonly OwnerReference[]): Promise<Classified> {
    const out: Classified = { solid: [], dangling: [], waiting: [] };
    for (const ref of refs) {
      const owner = await this.#isDangling(ref, item);
      if (owner === undefined) out.dangling.push(ref);
      else if (owner.metadata.deletionTimestamp !== undefined && hasFinalizer(owner, finalizerDeleteDependents)) out.waiting.push(ref);
      else out.solid.push(ref);
    }
    return out;
  }

  /**
   * isDangling: the owner as a live GET finds it, or undefined when it is absent or has another uid
   * (a namespaced owner is looked up in the dependent's namespace).
   */
  async #isDangling(ref: OwnerReference, item: GraphNode): Promise<MetaObject | undefined> {
    const key: ObjectReference = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: "" };
    if (this.#absent.has(key)) return undefined;
    const nsKey = { ...key, namespace: item.identity.namespace };
    if (this.#absent.has(nsKey)) return undefined;
    const resource = this.#ops.apiResource(ref.apiVersion, ref.kind);
    const cacheKey = resource.namespaced ? nsKey : key;
    if (item.identity.namespace === "" && resource.namespaced) {
      V(this.#log, 2).info("item is cluster-scoped, but refers to a namespaced owner", {
        item: referenceString(item.identity),
        owner: ref.name,
      });
      throw new NamespacedOwnerOfClusterScopedObjectError(`${referenceString(item.identity)} refers to a namespaced owner`);
    }
    try {
      const owner = await this.#ops.getObject(cacheKey);
      if (owner.metadata.uid === ref.uid) return owner;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    this.#absent.add(cacheKey);
    return undefined;
  }

  /** attemptToOrphanWorker: the owner's dependents lose their reference to it, then the orphan finalizer goes. */
  async attemptToOrphanWorker(uid: string): Promise<void> {
    const owner = this.#graph.uidToNode.read(uid);
    if (owner === undefined) return;
    const failures: string[] = [];
    await Promise.all(
      [...owner.dependents].map(async (dep) => {
        try {
          await this.#ops.removeOwnerReferences(dep.identity, [owner.identity.uid]);
        } catch (err) {
          if (!isNotFound(err)) failures.push(`${referenceString(dep.identity)}: ${String(err)}`);
        }
      }),
    );
    if (failures.length > 0) throw new Error(`orphanDependents for ${referenceString(owner.identity)} failed: ${failures.join("; ")}`);
    V(this.#log, 5).info("successfully updated all dependents", { owner: referenceString(owner.identity) });
    await this.#ops.removeFinalizer(owner.identity, finalizerOrphanDependents);
  }
}
