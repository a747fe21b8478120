/** /version: the server reports the Kubernetes minor it implements, so kubectl's skew checks pass. */
import type { EffectiveVersion } from "@servicenet/component-base/compatibility";
import { defaultBuildEffectiveVersion } from "../util/compatibility/version.ts";

/** k8s.io/apimachinery/pkg/version.Info of 1.33, its fields in upstream's order. */
export interface VersionInfo {
  major: string;
  minor: string;
  /** The emulated major.minor (`--emulated-version`; the binary's when not set). */
  emulationMajor?: string;
  emulationMinor?: string;
  /** The oldest control plane the server stays compatible with (one minor below the emulated one). */
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/**
 * The version document (component-base/compatibility effectiveVersion.Info): major, minor and
 * gitVersion stay the binary's (1.33) under emulation; the emulation and min compatibility
 * versions are added.
 */
export function serverVersion(effective: EffectiveVersion = defaultBuildEffectiveVersion()): VersionInfo {
  const bin = effective.binaryVersion;
  return {
    major: String(bin.major),
    minor: String(bin.minor),
    emulationMajor: String(effective.emulationVersion.major),
    emulationMinor: String(effective.emulationVersion.minor),
    minCompatibilityMajor: String(effective.minCompatibilityVersion.major),
    minCompatibilityMinor: String(effective.minCompatibilityVersion.minor),
    gitVersion: `v${bin.toString()}+servicenet`,
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "2025-01-01T00:00:00Z",
    goVersion: `node${process.versions.node}`,
    compiler: "tsc",
    platform: `${process.platform}/${process.arch === "x64" ? "amd64" : process.arch}`,
  };
}
