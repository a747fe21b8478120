/**
 * The feature gates servicenet honours, with the real history of each (upstream
 * pkg/features/versioned_kube_features.go of 1.33 and staging/src/k8s.io/apiserver/pkg/features/
 * kube_features.go), read at the emulation version as component-base's versioned feature gate
 * reads them. Gates are passed in as values; nothing reads a global.
 *
 * At 1.33 (the binary version): MultiCIDRServiceAllocator GA and on (not locked),
 * DisableAllocatorDualWrite beta and off, AuthorizeWithSelectors beta and on, and the two
 * StrictCostEnforcement gates GA and locked on. `--emulated-version=1.31` turns the allocator gate
 * back to beta and off (the bitmap allocator), AuthorizeWithSelectors to alpha and off, and
 * unlocks StrictCostEnforcementForVAP/ForWebhooks (beta, off by default there).
 */
import { Alpha, Beta, FeatureGate, GA, type VersionedSpecs } from "@servicenet/component-base/featuregate";

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
  /** KEP-4592: ValidatingAdmissionPolicy expressions are charged the CEL library functions' costs. */
  StrictCostEnforcementForVAP: boolean;
  /** KEP-4592: admission webhooks' matchConditions are charged the CEL library functions' costs. */
  StrictCostEnforcementForWebhooks: boolean;
}

/** Each gate's VersionedSpecs, as upstream lists them in 1.33. */
export const versionedKubeFeatures: Readonly<Record<keyof FeatureGates, VersionedSpecs>> = {
  MultiCIDRServiceAllocator: [
    { version: "1.27", default: false, preRelease: Alpha },
    { version: "1.31", default: false, preRelease: Beta },
    { version: "1.33", default: true, preRelease: GA, lockToDefault: false },
  ],
  DisableAllocatorDualWrite: [
    { version: "1.31", default: false, preRelease: Alpha },
    { version: "1.33", default: false, preRelease: Beta },
  ],
  AuthorizeWithSelectors: [
    { version: "1.31", default: false, preRelease: Alpha },
    { version: "1.32", default: true, preRelease: Beta },
  ],
  StrictCostEnforcementForVAP: [
    { version: "1.30", default: false, preRelease: Beta },
    { version: "1.32", default: true, preRelease: GA, lockToDefault: true },
  ],
  StrictCostEnforcementForWebhooks: [
    { version: "1.30", default: false, preRelease: Beta },
    { version: "1.32", default: true, preRelease: GA, lockToDefault: true },
  ],
};

const known = Object.keys(versionedKubeFeatures) as (keyof FeatureGates)[];

/** The binary's own version, where gates are read without `--emulated-version`. */
export const defaultEmulationVersion = "1.33";

/** A component-base feature gate of these features at `emulationVersion`; `warn` gets its warnings. */
export function newKubeFeatureGate(emulationVersion: string = defaultEmulationVersion, warn?: (msg: string) => void): FeatureGate {
  const f = new FeatureGate(emulationVersion, warn);
  f.addVersioned(versionedKubeFeatures);
  return f;
}

/** The gates' values in `f`. */
export function featureGatesOf(f: FeatureGate): FeatureGates {
  return Object.fromEntries(known.map((k) => [k, f.enabled(k)])) as unknown as FeatureGates;
}

/** The defaults at `emulationVersion`. */
export function defaultFeatureGatesAt(emulationVersion: string): FeatureGates {
  return featureGatesOf(newKubeFeatureGate(emulationVersion));
}

/** The 1.33 defaults. */
export const defaultFeatureGates: Readonly<FeatureGates> = Object.freeze(defaultFeatureGatesAt(defaultEmulationVersion));

/**
 * How ClusterIPs are allocated, from the two gates:
 * - `bitmap`: MultiCIDRServiceAllocator off; the legacy RangeAllocation bitmap only (<= 1.32 default);
 * - `dual-write`: IPAddress objects, and the bitmap written too (1.31-1.33 with the gate on);
 * - `ipaddress`: IPAddress objects only (1.34+ default).
 */
export type AllocatorMode = "bitmap" | "dual-write" | "ipaddress";

/** The allocator mode the gates select. DisableAllocatorDualWrite alone (without the allocator) changes nothing. */
export function allocatorMode(g: FeatureGates): AllocatorMode {
  if (!g.MultiCIDRServiceAllocator) return "bitmap";
  return g.DisableAllocatorDualWrite ? "ipaddress" : "dual-write";
}

/** The gates for a mode (the inverse of `allocatorMode`); the other gates keep their 1.33 defaults. */
export function featureGatesForMode(mode: AllocatorMode): FeatureGates {
  return {
    ...defaultFeatureGates,
    MultiCIDRServiceAllocator: mode !== "bitmap",
    DisableAllocatorDualWrite: mode === "ipaddress",
  };
}

/**
 * Parses `--feature-gates` ("A=true,B=false") at `emulationVersion` (default 1.33). Throws an Error
 * with component-base's wording: `unrecognized feature gate: X`, `missing bool value for X`,
 * `invalid value of X=v, err: strconv.ParseBool: parsing "v": invalid syntax`,
 * `cannot set feature gate X to false, feature is locked to true`.
 */
export function parseFeatureGates(
  value: string,
  emulationVersion: string = defaultEmulationVersion,
  warn?: (msg: string) => void,
): FeatureGates {
  const f = newKubeFeatureGate(emulationVersion, warn);
  f.set(value);
  return featureGatesOf(f);
}

/** `A=true,B=false` in a stable order, for logs and child-process flags. */
export function formatFeatureGates(g: FeatureGates): string {
  return known.map((k) => `${k}=${g[k]}`).join(",");
}
