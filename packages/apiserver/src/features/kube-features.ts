/**
 * The feature gates servicenet honours (upstream pkg/features/kube_features.go), parsed from
 * `--feature-gates` as component-base parses them. Gates are passed in as values; nothing reads a
 * global.
 *
 * Defaults are those of Kubernetes **1.33** (the release whose kubectl this project tests against,
 * and the one where the networking.k8s.io/v1 ServiceCIDR and IPAddress APIs went GA):
 * MultiCIDRServiceAllocator GA and on, DisableAllocatorDualWrite beta and off, so a new cluster
 * allocates with IPAddress objects and keeps writing the legacy bitmap for skewed apiservers.
 * Upstream 1.34 turns DisableAllocatorDualWrite on and 1.35 locks it; set it to get that behaviour.
 * AuthorizeWithSelectors (staging/src/k8s.io/apiserver/pkg/features/kube_features.go) is beta and
 * on since 1.32.
 */

/** The gates servicenet knows. */
export interface FeatureGates {
  /** KEP-1880: allocate ClusterIPs by creating IPAddress objects inside ServiceCIDRs. */
  MultiCIDRServiceAllocator: boolean;
  /** KEP-1880: stop writing the legacy RangeAllocation bitmap next to the IPAddress objects. */
  DisableAllocatorDualWrite: boolean;
  /**
   * KEP-4601: a list, watch or deletecollection request's field and label selectors reach the
   * authorizer, and CEL's authorizer library gains `fieldSelector()` and `labelSelector()`.
   */
  AuthorizeWithSelectors: boolean;
}

/** The 1.33 defaults. */
export const defaultFeatureGates: Readonly<FeatureGates> = Object.freeze({
  MultiCIDRServiceAllocator: true,
  DisableAllocatorDualWrite: false,
  AuthorizeWithSelectors: true,
});

const known = Object.keys(defaultFeatureGates) as (keyof FeatureGates)[];

/**
 * How ClusterIPs are allocated, from the two gates:
 * - `bitmap`: MultiCIDRServiceAllocator off; the legacy RangeAllocation bitmap only (<= 1.30 default);
 * - `dual-write`: IPAddress objects, and the bitmap written too (1.31-1.33 with the gate on);
 * - `ipaddress`: IPAddress objects only (1.34+ default).
 */
export type AllocatorMode = "bitmap" | "dual-write" | "ipaddress";

/** The allocator mode the gates select. DisableAllocatorDualWrite alone (without the allocator) changes nothing. */
export function allocatorMode(g: FeatureGates): AllocatorMode {
  if (!g.MultiCIDRServiceAllocator) return "bitmap";
  return g.DisableAllocatorDualWrite ? "ipaddress" : "dual-write";
}

/** The gates for a mode (the inverse of `allocatorMode`); the other gates keep their defaults. */
export function featureGatesForMode(mode: AllocatorMode): FeatureGates {
  return {
    ...defaultFeatureGates,
    MultiCIDRServiceAllocator: mode !== "bitmap",
    DisableAllocatorDualWrite: mode === "ipaddress",
  };
}

/** Go's strconv.ParseBool. */
function parseBool(v: string): boolean | null {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  return null;
}

/**
 * Parses `--feature-gates` ("A=true,B=false") over `base` (default: the 1.33 defaults). Throws an
 * Error with component-base's wording: `unrecognized feature gate: X`, `missing bool value for X`,
 * `invalid value of X=v, err: strconv.ParseBool: parsing "v": invalid syntax`.
 */
export function parseFeatureGates(value: string, base: Readonly<FeatureGates> = defaultFeatureGates): FeatureGates {
  const out: FeatureGates = { ...base };
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const eq = entry.indexOf("=");
    const key = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    if (eq < 0) throw new Error(`missing bool value for ${key}`);
    const v = entry.slice(eq + 1).trim();
    if (!(known as string[]).includes(key)) throw new Error(`unrecognized feature gate: ${key}`);
    const b = parseBool(v);
    if (b === null) throw new Error(`invalid value of ${key}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
    out[key as keyof FeatureGates] = b;
  }
  return out;
}

/** `A=true,B=false` in a stable order, for logs and child-process flags. */
export function formatFeatureGates(g: FeatureGates): string {
  return known.map((k) => `${k}=${g[k]}`).join(",");
}
