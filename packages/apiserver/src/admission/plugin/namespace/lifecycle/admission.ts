/**
 * The NamespaceLifecycle admission plugin (plugin/pkg/admission/namespace/lifecycle/admission.go):
 * the immortal namespaces cannot be deleted, new content cannot be created in a namespace that is
 * terminating, and a namespaced write into a missing namespace is NotFound. Namespaces are read
 * from an informer cache; a namespace this apiserver was asked to delete in the last
 * forceLiveLookupTTL is read from storage while the cache still says Active.
 */
import { namespacePhases, namespaceTerminatingCause, StatusError, type Namespace } from "@servicenet/api";
import { isNotFound } from "@servicenet/api/errors";
import type { KubeObject } from "../../../../storage/index.ts";
import type { Lister } from "../../../../util/informer/store-informer.ts";

/** Namespaces that can never be deleted (upstream's immortalNamespaces: default, kube-system, kube-public). */
export const immortalNamespaces: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public"]);

/** How long a namespace deleted through this apiserver is looked up live (upstream forceLiveLookupTTL). */
export const forceLiveLookupTTLMs = 30_000;

/** The write being admitted: a create, update or delete of a namespaced object. */
export interface Attributes {
  operation: "CREATE" | "UPDATE" | "DELETE";
  namespace: string;
  /** The object's name ("" on a create whose name is not generated yet). */
  name: string;
  resource: { group: string; resource: string };
  object?: KubeObject;
}

export interface LifecycleOptions {
  /** The namespace informer's cache, started lazily on first use. */
  cache: Lister<KubeObject> & { start?(): void };
  /** A live read of a namespace from storage (NotFound when it is missing). */
  getNamespace(name: string): Promise<KubeObject>;
  immortal?: ReadonlySet<string>;
  now?: () => number;
}

/** NamespaceLifecycle; `admitDelete` for namespace deletes, `admit` for namespaced objects. */
export class Lifecycle {
  private readonly o: LifecycleOptions;
  private readonly immortal: ReadonlySet<string>;
  private readonly forceLiveLookup = new Map<string, number>();
  private started = false;

  constructor(o: LifecycleOptions) {
    this.o = o;
    this.immortal = o.immortal ?? immortalNamespaces;
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** A namespace DELETE: immortal ones are Forbidden; the others are looked up live for a while. */
  admitDelete(name: string): void {
    if (this.immortal.has(name))
      throw StatusError.forbidden({ group: "", resource: "namespaces" }, name, "this namespace may not be deleted");
    this.forceLiveLookup.set(name, this.now() + forceLiveLookupTTLMs);
  }

  private cached(name: string): KubeObject | undefined {
    if (!this.started) {
      this.started = true;
      this.o.cache.start?.();
    }
    // A cache that has not synced yet answers nothing: storage does (upstream waits for it instead).
    return this.o.cache.hasSynced() ? this.o.cache.get(name) : undefined;
  }

  private liveLookupWanted(name: string, cached: KubeObject | undefined): boolean {
    const until = this.forceLiveLookup.get(name);
    if (until === undefined) return false;
    if (this.now() >= until) {
      this.forceLiveLookup.delete(name);
      return false;
    }
    // We think it was marked for deletion, but the cache may still say Active.
    return cached !== undefined && phaseOf(cached) === namespacePhases.Active;
  }

  /** upstream Lifecycle.Admit for a namespaced object. */
  async admit(a: Attributes): Promise<void> {
    if (a.namespace === "" || a.operation === "DELETE") return;
    let ns = this.cached(a.namespace);
    if (ns === undefined || this.liveLookupWanted(a.namespace, ns)) {
      // As a last resort, read storage: its NotFound is the answer for a missing namespace.
      try {
        ns = await this.o.getNamespace(a.namespace);
      } catch (e) {
        if (isNotFound(e)) throw e;
        throw StatusError.internal(e instanceof Error ? e.message : String(e), e);
      }
    }
    if (a.operation !== "CREATE" || phaseOf(ns) !== namespacePhases.Terminating) return;
    const err = StatusError.forbidden(
      a.resource,
      resourceName(a),
      `unable to create new content in namespace ${a.namespace} because it is being terminated`,
    );
    const details = (err.status.details ??= {});
    details.causes = [
      ...(details.causes ?? []),
      { reason: namespaceTerminatingCause, message: `namespace ${a.namespace} is being terminated`, field: "metadata.namespace" },
    ];
    throw err;
  }
}

const phaseOf = (ns: KubeObject): string | undefined => (ns as Namespace).status?.phase;

/** upstream admission extractResourceName: the name, else the object's generateName, else "Unknown". */
function resourceName(a: Attributes): string {
  if (a.name !== "") return a.name;
  const meta = a.object?.metadata;
  if (meta?.name) return meta.name;
  const gen = meta?.["generateName"];
  return typeof gen === "string" && gen !== "" ? gen : "Unknown";
}
