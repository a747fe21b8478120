/**
 * The dependency graph's nodes (upstream pkg/controller/garbagecollector/graph.go): one node per
 * object uid, with its owner references, its dependents, and whether it is being deleted (and
 * waiting for its dependents: the foregroundDeletion finalizer). A virtual node stands for an
 * owner that some dependent names but no informer has shown yet.
 */
import type { OwnerReference } from "@servicenet/api";

/** An object's coordinates (upstream objectReference: the OwnerReference fields plus a namespace). */
export interface ObjectReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** "" for cluster-scoped objects (and for virtual owners of cluster-scoped dependents). */
  namespace: string;
}

/** objectReference.String(): `[v1/Service, namespace: ns, name: web, uid: ...]`. */
export function referenceString(r: ObjectReference): string {
  return `[${r.apiVersion}/${r.kind}, namespace: ${r.namespace}, name: ${r.name}, uid: ${r.uid}]`;
}

/** Two references name the same object (the same five coordinates). */
export function sameReference(a: ObjectReference, b: ObjectReference): boolean {
  return a.uid === b.uid && a.name === b.name && a.namespace === b.namespace && a.kind === b.kind && a.apiVersion === b.apiVersion;
}

export class GraphNode {
  identity: ObjectReference;
  readonly dependents = new Set<GraphNode>();
  /** The object's ownerReferences as last observed. */
  owners: OwnerReference[];
  /** Added for an owner reference, not yet seen through an informer. */
  virtual: boolean;
  beingDeleted: boolean;
  deletingDependents: boolean;

  constructor(
    identity: ObjectReference,
    o: { owners?: OwnerReference[]; virtual?: boolean; beingDeleted?: boolean; deletingDependents?: boolean } = {},
  ) {
    this.identity = identity;
    this.owners = o.owners ?? [];
    this.virtual = o.virtual ?? false;
    this.beingDeleted = o.beingDeleted ?? false;
    this.deletingDependents = o.deletingDependents ?? false;
  }

  /** A copy with the same dependents and owners (the graph replaces a node with another identity). */
  clone(): GraphNode {
    const n = new GraphNode(
      { ...this.identity },
      { owners: this.owners, virtual: this.virtual, beingDeleted: this.beingDeleted, deletingDependents: this.deletingDependents },
    );
    for (const d of this.dependents) n.dependents.add(d);
    return n;
  }

  isObserved(): boolean {
    return !this.virtual;
  }

  /** Dependents whose reference to this node has blockOwnerDeletion: true (upstream blockingDependents). */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }
}

/** uidToNode: the graph's index. */
export class UIDToNode {
  readonly #nodes = new Map<string, GraphNode>();

  read(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  write(n: GraphNode): void {
    this.#nodes.set(n.identity.uid, n);
  }

  delete(uid: string): void {
    this.#nodes.delete(uid);
  }

  get size(): number {
    return this.#nodes.size;
  }
}
