/**
 * The per-resource half of the namespace deleter (namespaced_resources_deleter.go:
 * deleteAllContentForGroupVersionResource, deleteCollection, listCollection, deleteEachItem,
 * estimateGracefulTermination and the operationNotSupportedCache), over plain HTTP as upstream's
 * metadata client.
 */
import { isNotFound, toStatusError } from "@servicenet/client/errors";
import { V, type Logger } from "@servicenet/component-base/logs";
import { gvrString, type GroupVersionResource } from "./discovery.ts";
import type { RESTRequest } from "./discovery.ts";

/** Assumed time for finalizers to complete when items pending deletion carry some (upstream finalizerEstimateSeconds). */
export const finalizerEstimateSeconds = 15;

/** What one resource's pass found (upstream gvrDeletionMetadata). */
export interface GVRDeletionMetadata {
  finalizerEstimateSeconds: number;
  numRemaining: number;
  finalizersToNumRemaining?: Map<string, number>;
}

/** A resource that failed, with what upstream returns alongside the error (its estimate still counts). */
export class ContentError extends Error {
  readonly metadata: GVRDeletionMetadata;
  constructor(cause: Error, metadata: GVRDeletionMetadata) {
    super(cause.message, { cause });
    this.metadata = metadata;
  }
}

interface ItemMeta {
  metadata: { name?: string; finalizers?: string[] };
  status?: { phase?: string };
  spec?: { terminationGracePeriodSeconds?: number };
}

// The namespace controller deletes generically and must not have the garbage collector orphan dependents.
const background = { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: "Background" };

const unsupported = (e: unknown): boolean => {
  const s = toStatusError(e);
  return s !== undefined && (s.reason === "MethodNotAllowed" || s.reason === "NotFound");
};

/** Lists and deletes one resource's content in a namespace; remembers what the server does not support. */
export class ContentLister {
  private readonly notSupported = new Set<string>();
  private readonly request: RESTRequest;
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(request: RESTRequest, now: () => number, log: Logger) {
    this.request = request;
    this.now = now;
    this.log = log;
  }

  /** Seeds the cache from discovery verbs (upstream initOpCache). */
  noteVerbs(gvr: GroupVersionResource, verbs: readonly string[]): void {
    for (const op of ["list", "deletecollection"]) if (!verbs.includes(op)) this.notSupported.add(`${op} ${gvrString(gvr)}`);
  }

  private path(gvr: GroupVersionResource, namespace: string, name?: string): string {
    const base = gvr.group === "" ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
    return `${base}/namespaces/${namespace}/${gvr.resource}${name !== undefined ? `/${encodeURIComponent(name)}` : ""}`;
  }

  /** upstream deleteCollection: true when the server supports it. */
  async deleteCollection(gvr: GroupVersionResource, namespace: string): Promise<boolean> {
    const key = `deletecollection ${gvrString(gvr)}`;
    if (this.notSupported.has(key)) return false;
    try {
      await this.request("DELETE", this.path(gvr, namespace), background);
      return true;
    } catch (e) {
      if (!unsupported(e)) throw e;
      this.notSupported.add(key);
      return false;
    }
  }

  /** upstream listCollection: the items, or undefined when listing is not supported. */
  async listCollection(gvr: GroupVersionResource, namespace: string): Promise<ItemMeta[] | undefined> {
    const key = `list ${gvrString(gvr)}`;
    if (this.notSupported.has(key)) return undefined;
    try {
      return ((await this.request("GET", this.path(gvr, namespace))) as { items?: ItemMeta[] }).items ?? [];
    } catch (e) {
      if (!unsupported(e)) throw e;
      this.notSupported.add(key);
      return undefined;
    }
  }

  /** upstream deleteEachItem. */
  async deleteEachItem(gvr: GroupVersionResource, namespace: string): Promise<void> {
    const items = await this.listCollection(gvr, namespace);
    for (const item of items ?? []) {
      try {
        await this.request("DELETE", this.path(gvr, namespace, item.metadata.name ?? ""), background);
      } catch (e) {
        if (!isNotFound(e) && !unsupported(e)) throw e;
      }
    }
  }

  /**
   * upstream estimateGracefulTermination: for pods, the longest grace period of a pod that is not
   * terminal, unless that long has already passed since the namespace was deleted.
   */
  async estimateGracefulTermination(gvr: GroupVersionResource, namespace: string, deletedAtMs: number): Promise<number> {
    if (gvr.group !== "" || gvr.resource !== "pods") return 0;
    const pods = ((await this.request("GET", `/api/v1/namespaces/${namespace}/pods`)) as { items?: ItemMeta[] }).items ?? [];
    let estimate = 0;
    for (const p of pods) {
      if (p.status?.phase === "Succeeded" || p.status?.phase === "Failed") continue;
      estimate = Math.max(estimate, p.spec?.terminationGracePeriodSeconds ?? 0);
    }
    return this.now() - deletedAtMs >= estimate * 1000 ? 0 : estimate;
  }

  /** upstream deleteAllContentForGroupVersionResource; failures are ContentErrors carrying the estimate. */
  async deleteAllContentForGroupVersionResource(
    gvr: GroupVersionResource,
    namespace: string,
    deletedAtMs: number,
  ): Promise<GVRDeletionMetadata> {
    const log = V(this.log, 5);
    let estimate: number;
    try {
      estimate = await this.estimateGracefulTermination(gvr, namespace, deletedAtMs);
    } catch (e) {
      throw new ContentError(e as Error, { finalizerEstimateSeconds: 0, numRemaining: 0 });
    }
    const failed = (e: unknown) => new ContentError(e as Error, { finalizerEstimateSeconds: estimate, numRemaining: 0 });
    let items: ItemMeta[] | undefined;
    try {
      if (!(await this.deleteCollection(gvr, namespace))) await this.deleteEachItem(gvr, namespace);
      log.info("namespace controller - deleteAllContentForGroupVersionResource - checking for no more items in namespace", {
        namespace,
        resource: gvrString(gvr),
      });
      items = await this.listCollection(gvr, namespace);
    } catch (e) {
      throw failed(e);
    }
    if (items === undefined) return { finalizerEstimateSeconds: estimate, numRemaining: 0 };
    if (items.length === 0) return { finalizerEstimateSeconds: 0, numRemaining: 0 };
    const finalizersToNumRemaining = new Map<string, number>();
    for (const item of items)
      for (const f of item.metadata.finalizers ?? []) finalizersToNumRemaining.set(f, (finalizersToNumRemaining.get(f) ?? 0) + 1);
    if (estimate !== 0) return { finalizerEstimateSeconds: estimate, numRemaining: items.length, finalizersToNumRemaining };
    // Finalizers on remaining items are a normal condition: allow a default time for them (e.g. the garbage collector).
    if (finalizersToNumRemaining.size > 0) return { finalizerEstimateSeconds, numRemaining: items.length, finalizersToNumRemaining };
    // Nothing reported a finalizer, so something unexpected kept items that should have been deleted.
    throw new ContentError(new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(gvr)}`), {
      finalizerEstimateSeconds: estimate,
      numRemaining: items.length,
    });
  }
}
