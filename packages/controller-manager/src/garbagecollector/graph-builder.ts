/**
 * The GraphBuilder (upstream pkg/controller/garbagecollector/graph_builder.go): informer events
 * of every monitored resource keep the dependency graph, and put the nodes that may need work on
 * the attemptToDelete and attemptToOrphan queues (keyed by uid). JavaScript's one thread plays
 * the part of upstream's single processGraphChanges goroutine: each event is applied in its handler.
 */
import { finalizerDeleteDependents, finalizerOrphanDependents, type OwnerReference } from "@servicenet/api";
import type { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { GraphNode, referenceString, sameReference, UIDToNode, type ObjectReference } from "./graph.ts";

/** The metadata the graph reads (what upstream's metadata informers deliver). */
export interface MetaObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name?: string | undefined;
    namespace?: string | undefined;
    uid?: string | undefined;
    resourceVersion?: string | undefined;
    deletionTimestamp?: string | undefined;
    finalizers?: string[] | undefined;
    ownerReferences?: OwnerReference[] | undefined;
  };
}

export type GraphEvent =
  | { type: "add" | "update"; obj: MetaObject; oldObj?: MetaObject; virtual?: false }
  | { type: "delete"; obj: MetaObject; virtual?: false }
  | { type: "delete"; identity: ObjectReference; virtual: true };

/** Reports an owner reference to a namespaced owner outside the dependent's namespace (an Event upstream). */
export type InvalidOwnerRefReporter = (dependent: ObjectReference, message: string) => void;

const absentOwnerCacheSize = 500;

/** upstream ReferenceCache: owners verified absent, so dependents need no second GET. */
export class AbsentOwnerCache {
  readonly #keys = new Set<string>();
  static key(r: Pick<ObjectReference, "apiVersion" | "kind" | "name" | "uid" | "namespace">): string {
    return `${r.apiVersion}|${r.kind}|${r.namespace}|${r.name}|${r.uid}`;
  }
  add(r: ObjectReference): void {
    const k = AbsentOwnerCache.key(r);
    this.#keys.delete(k);
    this.#keys.add(k);
    if (this.#keys.size > absentOwnerCacheSize) this.#keys.delete(this.#keys.values().next().value!);
  }
  has(r: ObjectReference): boolean {
    return this.#keys.has(AbsentOwnerCache.key(r));
  }
}

const hasFinalizer = (o: MetaObject | undefined, f: string) => (o?.metadata.finalizers ?? []).includes(f);
const isDeleting = (o: MetaObject | undefined) => o?.metadata.deletionTimestamp !== undefined;

export function identityOf(o: MetaObject): ObjectReference {
  const m = o.metadata;
  return { apiVersion: o.apiVersion, kind: o.kind, name: m.name ?? "", uid: m.uid ?? "", namespace: m.namespace ?? "" };
}

function ownerIdentity(ref: OwnerReference, namespace: string): ObjectReference {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

export interface GraphBuilderDeps {
  attemptToDelete: RateLimitingQueue<string>;
  attemptToOrphan: RateLimitingQueue<string>;
  absentOwnerCache: AbsentOwnerCache;
  reportInvalidOwnerRef?: InvalidOwnerRefReporter;
  logger?: Logger;
}

export class GraphBuilder {
  readonly uidToNode = new UIDToNode();
  readonly #d: GraphBuilderDeps;
  readonly #log: Logger;

  constructor(deps: GraphBuilderDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
  }

  /** enqueueVirtualDeleteEvent: the apiserver confirmed `identity` is gone. */
  enqueueVirtualDeleteEvent(identity: ObjectReference): void {
    this.processGraphChange({ type: "delete", identity, virtual: true });
  }

  /** Puts the node with `uid` on the attemptToDelete queue. */
  enqueueAttemptToDelete(uid: string): void {
    this.#d.attemptToDelete.add(uid);
  }

  /** processGraphChanges for one event. */
  processGraphChange(e: GraphEvent): void {
    if (e.virtual === true) {
      const existing = this.uidToNode.read(e.identity.uid);
      if (existing !== undefined) this.#processDelete(existing, e.identity, true);
      return;
    }
    const identity = identityOf(e.obj);
    let existing = this.uidToNode.read(identity.uid);
    if (existing?.virtual === true) existing = this.#observe(existing, identity);
    if (e.type === "delete") {
      if (existing !== undefined) this.#processDelete(existing, identity, false);
      return;
    }
    const obj = e.obj;
    const owners = obj.metadata.ownerReferences ?? [];
    if (existing === undefined) {
      const n = new GraphNode(identity, {
        owners,
        beingDeleted: isDeleting(obj),
        deletingDependents: isDeleting(obj) && hasFinalizer(obj, finalizerDeleteDependents),
      });
      this.uidToNode.write(n);
      this.#addDependentToOwners(n, owners);
      this.#processTransitions(e.oldObj, obj, n);
      return;
    }
    const { added, removed, changed } = referencesDiffs(existing.owners, owners);
    if (added.length + removed.length + changed.length > 0) {
      this.#addUnblockedOwnersToDeleteQueue(removed, changed);
      existing.owners = owners;
      this.#addDependentToOwners(existing, added);
      this.#removeDependentFromOwners(existing, removed);
    }
    if (isDeleting(obj)) existing.beingDeleted = true;
    this.#processTransitions(e.oldObj, obj, existing);
  }

  // A virtual node seen through an informer: it becomes observed under the identity seen. Its
  // dependents that named it otherwise are checked again (and reported if another namespace).
  #observe(n: GraphNode, observed: ObjectReference): GraphNode {
    let node = n;
    if (!sameReference(n.identity, observed)) {
      const { nonmatching } = partitionDependents(n.dependents, observed);
      for (const dep of nonmatching) {
        if (observed.namespace !== "" && dep.identity.namespace !== observed.namespace) this.#reportInvalidNamespace(dep, observed.uid);
        this.#d.attemptToDelete.add(dep.identity.uid);
      }
      node = n.clone();
      node.identity = observed;
      this.uidToNode.write(node);
    }
    node.virtual = false;
    return node;
  }

  #processDelete(n: GraphNode, deleted: ObjectReference, virtual: boolean): void {
    if (virtual) {
      const { matching, nonmatching } = partitionDependents(n.dependents, deleted);
      let keep = false;
      if (n.virtual && nonmatching.length > 0) {
        // Some dependents name this uid with other coordinates: the node stays under one of theirs.
        keep = true;
        if (sameReference(n.identity, deleted)) {
          const alt = alternateOwnerIdentity(nonmatching, deleted);
          if (alt !== undefined) {
            const replacement = n.clone();
            replacement.identity = alt;
            this.uidToNode.write(replacement);
            this.#d.attemptToDelete.addRateLimited(alt.uid);
          }
        }
      } else if (!n.virtual && !sameReference(n.identity, deleted)) {
        keep = true; // an observed node is never removed on a virtual event with other coordinates
      }
      if (keep) {
        if (matching.length > 0) this.#d.absentOwnerCache.add(deleted);
        for (const dep of matching) this.#d.attemptToDelete.add(dep.identity.uid);
        return;
      }
    }
    this.uidToNode.delete(n.identity.uid);
    this.#removeDependentFromOwners(n, n.owners);
    if (n.dependents.size > 0) this.#d.absentOwnerCache.add(deleted);
    for (const dep of n.dependents) this.#d.attemptToDelete.add(dep.identity.uid);
    for (const o of n.owners) {
      const owner = this.uidToNode.read(o.uid);
      // An owner waiting for its dependents may be free to go now.
      if (owner?.deletingDependents === true) this.#d.attemptToDelete.add(owner.identity.uid);
    }
    V(this.#log, 5).info("item removed from the graph", { item: referenceString(n.identity), virtual });
  }

  #addDependentToOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    let recheck = false;
    for (const ref of owners) {
      let owner = this.uidToNode.read(ref.uid);
      if (owner === undefined) {
        // A virtual owner: attemptToDelete asks the apiserver whether it exists.
        owner = new GraphNode(ownerIdentity(ref, n.identity.namespace), { virtual: true });
        this.uidToNode.write(owner);
        owner.dependents.add(n);
        this.#d.attemptToDelete.add(owner.identity.uid);
        continue;
      }
      owner.dependents.add(n);
      if (recheck) continue;
      const ownerNamespaced = owner.identity.namespace !== "";
      if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) {
        if (owner.isObserved()) this.#reportInvalidNamespace(n, ref.uid);
        recheck = true;
      } else if (ref.apiVersion !== owner.identity.apiVersion || ref.kind !== owner.identity.kind || ref.name !== owner.identity.name) {
        recheck = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && owner.virtual) {
        recheck = true;
      }
    }
    if (recheck) this.#d.attemptToDelete.add(n.identity.uid);
  }

  #removeDependentFromOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    for (const ref of owners) this.uidToNode.read(ref.uid)?.dependents.delete(n);
  }

  // Removed or no-longer-blocking references may unblock an owner waiting in foreground deletion.
  #addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: [OwnerReference, OwnerReference][]): void {
    const check = (uid: string) => {
      const owner = this.uidToNode.read(uid);
      if (owner?.deletingDependents === true) this.#d.attemptToDelete.add(uid);
    };
    for (const r of removed) if (r.blockOwnerDeletion === true) check(r.uid);
    for (const [o, n] of changed) if (o.blockOwnerDeletion === true && n.blockOwnerDeletion !== true) check(n.uid);
  }

  #processTransitions(oldObj: MetaObject | undefined, obj: MetaObject, n: GraphNode): void {
    const starts = (f: string) =>
      isDeleting(obj) && hasFinalizer(obj, f) && (oldObj === undefined || !isDeleting(oldObj) || !hasFinalizer(oldObj, f));
    if (starts(finalizerOrphanDependents)) {
      this.#d.attemptToOrphan.add(n.identity.uid);
      return;
    }
    if (starts(finalizerDeleteDependents)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.#d.attemptToDelete.add(dep.identity.uid);
      this.#d.attemptToDelete.add(n.identity.uid);
    }
  }

  // reportInvalidNamespaceOwnerRef
  #reportInvalidNamespace(n: GraphNode, ownerUID: string): void {
    const ref = n.owners.find((o) => o.uid === ownerUID);
    if (ref === undefined) return;
    const invalid = ownerIdentity(ref, n.identity.namespace);
    this.#d.reportInvalidOwnerRef?.(
      n.identity,
      `ownerRef ${referenceString(invalid)} does not exist in namespace ${JSON.stringify(n.identity.namespace)}`,
    );
  }
}

/** ownerReferenceMatchesCoordinates: uid, name, kind and apiVersion. */
function refMatches(ref: OwnerReference, id: ObjectReference): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

/**
 * partitionDependents: dependents whose reference to `owner.uid` matches its coordinates, and
 * those that do not (another namespace for a namespaced owner, or another name/kind/apiVersion).
 */
export function partitionDependents(
  deps: Iterable<GraphNode>,
  owner: ObjectReference,
): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of deps) {
    let match = false;
    let mismatch = false;
    if (owner.namespace !== "" && owner.namespace !== dep.identity.namespace) mismatch = true;
    else
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (refMatches(ref, owner)) match = true;
        else mismatch = true;
      }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

/** getAlternateOwnerIdentity: another coordinate set the dependents use for `verifiedAbsent.uid`. */
function alternateOwnerIdentity(deps: readonly GraphNode[], verifiedAbsent: ObjectReference): ObjectReference | undefined {
  for (const dep of deps) {
    for (const ref of dep.owners) {
      if (ref.uid !== verifiedAbsent.uid) continue;
      const id = ownerIdentity(ref, dep.identity.namespace);
      if (!sameReference(id, verifiedAbsent)) return id;
    }
  }
  return undefined;
}

/** referencesDiffs: by uid; `changed` pairs (old, new) whose other fields differ. */
export function referencesDiffs(
  old: readonly OwnerReference[],
  next: readonly OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: [OwnerReference, OwnerReference][] } {
  const oldByUID = new Map(old.map((r) => [r.uid, r]));
  const nextByUID = new Map(next.map((r) => [r.uid, r]));
  const added = next.filter((r) => !oldByUID.has(r.uid));
  const removed = old.filter((r) => !nextByUID.has(r.uid));
  const changed: [OwnerReference, OwnerReference][] = [];
  for (const r of next) {
    const o = oldByUID.get(r.uid);
    if (o !== undefined && JSON.stringify(o) !== JSON.stringify(r)) changed.push([o, r]);
  }
  return { added, removed, changed };
}
