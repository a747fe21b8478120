/**
 * What this controller last wrote, to notice an informer cache that has not
 * caught up with our own writes yet (upstream endpointslice_tracker.go).
 * Reconciling from such a cache would create duplicate slices.
 */
import type { EndpointSlice } from "@servicenet/api";
import { resourceVersionAtLeast } from "../framework/resource-version.ts";

type Expect = { readonly kind: "present"; readonly resourceVersion: string } | { readonly kind: "deleted" };

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
      const met =
        want.kind === "deleted" ? have === undefined : resourceVersionAtLeast(have?.metadata.resourceVersion, want.resourceVersion);
      if (met) m.delete(name);
      else stale = true;
    }
    if (m.size === 0) this.#byService.delete(serviceKey);
    return stale;
  }

  /** True if `slice` is exactly what we last wrote (an event of our own write; upstream ShouldSync is false). */
  isOwnWrite(serviceKey: string, slice: EndpointSlice): boolean {
    const want = this.#byService.get(serviceKey)?.get(slice.metadata.name ?? "");
    return want?.kind === "present" && want.resourceVersion !== "" && want.resourceVersion === slice.metadata.resourceVersion;
  }

  /**
   * A delete event for `name`: an expected write of it can no longer appear in the cache (someone
   * deleted the slice after we wrote it), so stop waiting for it; the next sync recreates it.
   */
  observedDeletion(serviceKey: string, name: string): void {
    const m = this.#byService.get(serviceKey);
    if (m?.get(name)?.kind === "present") m.delete(name);
  }

  /** Forgets a Service whose slices are gone. */
  deleteService(serviceKey: string): void {
    this.#byService.delete(serviceKey);
  }
}
