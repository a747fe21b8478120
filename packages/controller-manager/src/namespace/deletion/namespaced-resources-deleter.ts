/**
 * Deletes everything in a terminating namespace, then removes the controller's finalizer
 * (pkg/controller/namespace/deletion/namespaced_resources_deleter.go): discover every namespaced
 * resource over HTTP, deletecollection (or list + delete each) with propagationPolicy Background,
 * list again to see what remains and which finalizers hold it, report that as status conditions,
 * and finalize through PUT namespaces/{name}/finalize once nothing remains.
 */
import { finalizerKubernetes, namespacePhases, type Namespace } from "@servicenet/api";
import { isConflict, isNotFound, toStatusError } from "@servicenet/client/errors";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import {
  aggregate,
  filterByVerbs,
  groupVersionResources,
  parseGroupVersion,
  serverPreferredNamespacedResources,
  type DiscoveryResult,
  type GroupVersionResource,
} from "./discovery.ts";
import { NamespaceConditionUpdater, type ContentTotals } from "./namespace-condition-utils.ts";
import { ContentError, ContentLister, type GVRDeletionMetadata } from "./content.ts";
import type { RESTRequest } from "./discovery.ts";

/** Content remains; try again in about `estimate` seconds (upstream ResourcesRemainingError). */
export class ResourcesRemainingError extends Error {
  readonly estimate: number;
  constructor(estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
    this.name = "ResourcesRemainingError";
    this.estimate = estimate;
  }
}

export interface NamespacedResourcesDeleterOptions {
  request: RESTRequest;
  /** Default: ServerPreferredNamespacedResources over `request`. */
  discoverResources?: () => Promise<DiscoveryResult>;
  /** The spec finalizer this deleter owns (default `kubernetes`). */
  finalizerToken?: string;
  now?: () => number;
  logger?: Logger;
}

type NamespaceUpdate = (ns: Namespace) => Promise<Namespace>;

/** upstream namespacedResourcesDeleter. */
export class NamespacedResourcesDeleter {
  private readonly request: RESTRequest;
  private readonly discover: () => Promise<DiscoveryResult>;
  private readonly token: string;
  private readonly log: Logger;
  private readonly content: ContentLister;

  constructor(o: NamespacedResourcesDeleterOptions) {
    this.request = o.request;
    this.discover = o.discoverResources ?? (() => serverPreferredNamespacedResources(o.request));
    this.token = o.finalizerToken ?? finalizerKubernetes;
    this.log = o.logger ?? noopLogger;
    this.content = new ContentLister(o.request, o.now ?? Date.now, this.log);
  }

  /** upstream initOpCache: what discovery says a resource cannot list or deletecollection is never tried. */
  async initOpCache(): Promise<void> {
    const { lists, error } = await this.discover();
    if (error) this.log.error("unable to get all supported resources from server", { err: error.message });
    if (lists.length === 0) throw new Error(`Unable to get any supported resources from server: ${error?.message ?? ""}`);
    for (const l of lists) {
      let gv: { group: string; version: string };
      try {
        gv = parseGroupVersion(l.groupVersion);
      } catch {
        continue;
      }
      for (const r of l.resources) this.content.noteVerbs({ ...gv, resource: r.name }, r.verbs);
    }
  }

  /**
   * upstream Delete: nothing unless the namespace is being deleted; phase Terminating; then the
   * content, and the finalizer once none is left. Throws ResourcesRemainingError to be retried later.
   */
  async delete(nsName: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.getNamespace(nsName);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!ns.metadata.deletionTimestamp) return;
    V(this.log, 5).info("namespace controller - syncNamespace", { namespace: nsName, finalizerToken: this.token });
    try {
      ns = await this.retryOnConflictError(ns, (n) => this.updateNamespaceStatusFunc(n));
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    // The latest view of the namespace asserts that it is no longer deleting, or is already finalized.
    if (!ns.metadata.deletionTimestamp || finalized(ns)) return;
    const estimate = await this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    try {
      await this.retryOnConflictError(ns, (n) => this.finalizeNamespace(n));
    } catch (e) {
      // Another controller sharing the token may have finished the delete.
      if (!isNotFound(e)) throw e;
    }
  }

  private async getNamespace(name: string): Promise<Namespace> {
    return (await this.request("GET", `/api/v1/namespaces/${name}`)) as Namespace;
  }

  /** upstream retryOnConflictError: retries `fn` on the latest namespace while it conflicts; fails if the uid changed. */
  async retryOnConflictError(ns: Namespace, fn: NamespaceUpdate): Promise<Namespace> {
    let latest = ns;
    for (;;) {
      try {
        return await fn(latest);
      } catch (e) {
        if (!isConflict(e)) throw e;
      }
      const prev = latest;
      latest = await this.getNamespace(latest.metadata.name ?? "");
      if (prev.metadata.uid !== latest.metadata.uid) throw new Error("namespace uid has changed across retries");
    }
  }

  /** upstream updateNamespaceStatusFunc: phase Terminating on a deleting namespace that is not yet. */
  async updateNamespaceStatusFunc(ns: Namespace): Promise<Namespace> {
    if (!ns.metadata.deletionTimestamp || ns.status?.phase === namespacePhases.Terminating) return ns;
    const next: Namespace = { metadata: ns.metadata, status: { ...ns.status, phase: namespacePhases.Terminating } };
    return (await this.request("PUT", `/api/v1/namespaces/${ns.metadata.name}/status`, withKind(next))) as Namespace;
  }

  /** upstream finalizeNamespace: spec.finalizers without the token (sorted, as a string set lists them). */
  async finalizeNamespace(ns: Namespace): Promise<Namespace> {
    const finalizers = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== this.token))].sort();
    const next: Namespace = { metadata: ns.metadata, spec: { ...ns.spec, finalizers } };
    try {
      return (await this.request("PUT", `/api/v1/namespaces/${ns.metadata.name}/finalize`, withKind(next))) as Namespace;
    } catch (e) {
      // It was removed already, so life is good.
      if (isNotFound(e)) return ns;
      throw e;
    }
  }

  /** upstream deleteAllContent: the largest estimate of any resource; conditions written when they changed. */
  async deleteAllContent(ns: Namespace): Promise<number> {
    const namespace = ns.metadata.name ?? "";
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp ?? "");
    const errs: Error[] = [];
    const conditions = new NamespaceConditionUpdater();
    V(this.log, 4).info("namespace controller - deleteAllContent", { namespace });
    let discovered: DiscoveryResult;
    try {
      discovered = await this.discover();
    } catch (e) {
      discovered = { lists: [], error: asError(e) };
    }
    if (discovered.error) {
      // Discovery errors are not fatal: some set of resources can usually still be operated on.
      errs.push(discovered.error);
      conditions.processDiscoverResourcesErr(discovered.error);
    }
    const { gvrs, error: gvErr } = groupVersionResources(filterByVerbs(discovered.lists, ["delete"]));
    if (gvErr) {
      errs.push(gvErr);
      conditions.processGroupVersionErr(gvErr);
    }
    let estimate = 0;
    const totals: ContentTotals = { gvrToNumRemaining: new Map(), finalizersToNumRemaining: new Map() };
    for (const gvr of gvrs) {
      let m: GVRDeletionMetadata;
      try {
        m = await this.content.deleteAllContentForGroupVersionResource(gvr, namespace, deletedAt);
      } catch (e) {
        const err = e instanceof ContentError ? e : new ContentError(asError(e), { finalizerEstimateSeconds: 0, numRemaining: 0 });
        errs.push(err.cause as Error);
        conditions.processDeleteContentErr(err.cause as Error);
        m = err.metadata;
      }
      estimate = Math.max(estimate, m.finalizerEstimateSeconds);
      if (m.numRemaining > 0) addRemaining(totals, gvr, m);
    }
    conditions.processContentTotals(totals);
    // Always written when changed: a condition that said "it failed" must say when it works again.
    if (conditions.update(ns)) {
      try {
        await this.request("PUT", `/api/v1/namespaces/${namespace}/status`, withKind(ns));
      } catch (e) {
        this.log.error("couldn't update status condition for namespace", { namespace, err: asError(e).message });
      }
    }
    const err = errs.length > 0 ? new Error(aggregate(errs.map((e) => e.message))) : undefined;
    V(this.log, 4).info("namespace controller - deleteAllContent", { namespace, estimate, err: err?.message ?? "<nil>" });
    if (err) throw err;
    return estimate;
  }
}

function addRemaining(totals: ContentTotals, gvr: GroupVersionResource, m: GVRDeletionMetadata): void {
  totals.gvrToNumRemaining.set(gvr, m.numRemaining);
  for (const [f, n] of m.finalizersToNumRemaining ?? []) {
    if (n === 0) continue;
    totals.finalizersToNumRemaining.set(f, (totals.finalizersToNumRemaining.get(f) ?? 0) + n);
  }
}

/** finalized: spec.finalizers is empty. */
export const finalized = (ns: Namespace): boolean => (ns.spec?.finalizers ?? []).length === 0;

const withKind = (ns: Namespace): Namespace => ({ apiVersion: "v1", kind: "Namespace", ...ns });

function asError(e: unknown): Error {
  const s = toStatusError(e);
  if (s) return s;
  return e instanceof Error ? e : new Error(String(e));
}
