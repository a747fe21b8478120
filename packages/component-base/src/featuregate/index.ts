/** Versioned feature gates (k8s.io/component-base/featuregate). */
export { FeatureGate } from "./feature-gate.ts";
export {
  Alpha,
  Beta,
  Deprecated,
  featureSpecAtEmulationVersion,
  GA,
  PreAlpha,
  type FeatureSpec,
  type PreRelease,
  type VersionedSpecs,
} from "./feature-spec.ts";
