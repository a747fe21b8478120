/**
 * A feature's stability over releases (k8s.io/component-base/featuregate/feature_gate.go:
 * FeatureSpec, VersionedSpecs, featureSpecAtEmulationVersion): each spec says what the feature is
 * from its `version` on, so a gate answers as the release it emulates.
 */
import { Version } from "../version/version.ts";

/** featuregate.prerelease: GA is the empty string, as upstream. */
export type PreRelease = "PRE-ALPHA" | "ALPHA" | "BETA" | "" | "DEPRECATED";
export const PreAlpha: PreRelease = "PRE-ALPHA";
export const Alpha: PreRelease = "ALPHA";
export const Beta: PreRelease = "BETA";
export const GA: PreRelease = "";
export const Deprecated: PreRelease = "DEPRECATED";

/** What a feature is from `version` (major.minor) on. */
export interface FeatureSpec {
  default: boolean;
  /** The value cannot be changed from the default. */
  lockToDefault?: boolean;
  preRelease: PreRelease;
  version: string;
}

/** A feature's specs, one per release where it changed. */
export type VersionedSpecs = readonly FeatureSpec[];

/** The spec before a feature's first version (featureSpecAtEmulationVersion's fallback). */
const preAlphaSpec: FeatureSpec = Object.freeze({ default: false, preRelease: PreAlpha, version: "0.0" });

/** featureSpecAtEmulationVersion: the last spec whose version is not after `emulationVersion`; PreAlpha before the first. */
export function featureSpecAtEmulationVersion(specs: VersionedSpecs, emulationVersion: Version): FeatureSpec {
  for (let i = specs.length - 1; i >= 0; i--) {
    if (Version.parse(specs[i]!.version).greaterThan(emulationVersion)) continue;
    return specs[i]!;
  }
  return preAlphaSpec;
}

const stability: Record<PreRelease, number> = { "PRE-ALPHA": 0, ALPHA: 1, BETA: 2, "": 3, DEPRECATED: 4 };

/**
 * AddVersioned's checks of one feature's specs, after sorting them by version: each names a
 * major.minor version, versions strictly increase, stability never regresses (GA to beta or alpha,
 * beta to alpha) and Deprecated is terminal. Returns the sorted specs or throws upstream's message.
 */
export function sortedVersionedSpecs(name: string, specs: VersionedSpecs): VersionedSpecs {
  for (const s of specs) {
    if (s.version === "") throw new Error(`feature ${JSON.stringify(name)} did not provide a version`);
    if (Version.parse(s.version).components.length !== 2)
      throw new Error(`feature ${JSON.stringify(name)} specified patch version: ${s.version}`);
  }
  const sorted = [...specs].sort((a, b) => Version.parse(a.version).compare(Version.parse(b.version)));
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (!Version.parse(prev.version).lessThan(Version.parse(cur.version)))
      throw new Error(
        `feature ${JSON.stringify(name)} lists version transitions in non-increasing order (${cur.version} <= ${prev.version})`,
      );
    if (prev.preRelease === Deprecated && cur.preRelease !== Deprecated)
      throw new Error(`deprecated feature ${JSON.stringify(name)} must not resurrect from its terminal state`);
    if (cur.preRelease !== Deprecated && stability[cur.preRelease] < stability[prev.preRelease])
      throw new Error(`feature ${JSON.stringify(name)} regresses stability from more stable level to ${cur.preRelease} in ${cur.version}`);
  }
  return sorted;
}
