/**
 * What this controller last wrote, to notice an informer cache that has not
 * caught up with our own writes yet (upstream endpointslice_tracker.go).
 * Reconciling from such a cache would create duplicate slices.
 */
import type { EndpointSlice } from "@servicenet/api";

type Expect = { readonly kind: "present"; readonly resourceVersion: string } | { readonly kind: "deleted" };

function rvAtLeast(have: string | undefined, want: string): boolean {
  if (have === undefined) return false;
  // resourceVersions are opaque; when both are integers (etcd/kine revisions) order them, else require equality.
  if (/^\d+$/.test(have) && /^\d+$/.test(want)) return BigInt(have) >= BigInt(want);
  return have === want;
}

export class EndpointSliceTracker {
  readonly #byService = new Map<string, Map<string, Expect>>();

  #forService(key: string): Map<string, Expect> {
    let m = this.#byService.get(key);
    if (m === undefined) this.#byService.set(key, (m = new Map()));
    return m;
  }

  /** Records a create or update response. */
  written(serviceKey: string, slice: EndpointSlice): void {
    const name = slice.metadata.name;
    if (name) this.#forService(serviceKey).set(name, { kind: "present", resourceVersion: slice.metadata.resourceVersion ?? "" });
  }

  /** Records a delete. */
  deleted(serviceKey: string, name: string): void {
    this.#forService(serviceKey).set(name, { kind: "deleted" });
  }

  /**
   * True if `cached` (the informer's slices of the Service) does not yet
   * reflect our writes. Expectations that are met are dropped.
   */
  stale(serviceKey: string, cached: readonly EndpointSlice[]): boolean {
    const m = this.#byService.get(serviceKey);
    if (m === undefined) return false;
    const byName = new Map(cached.map((s) => [s.metadata.name ?? "", s]));
    let stale = false;
    for (const [name, want] of m) {
      const have = byName.get(name);
      const met = want.kind === "deleted" ? have === undefined : rvAtLeast(have?.metadata.resourceVersion, want.resourceVersion);
      if (met) m.delete(name);
      else stale = true;
    }
    if (m.size === 0) this.#byService.delete(serviceKey);
    return stale;
  }

  /** Forgets a Service whose slices are gone. */
  deleteService(serviceKey: string): void {
    this.#byService.delete(serviceKey);
  }
}
