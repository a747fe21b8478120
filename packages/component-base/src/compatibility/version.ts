/**
 * A component's effective version (k8s.io/component-base/compatibility/version.go effectiveVersion):
 * the binary version, the version it emulates (`--emulated-version`) and the minimum version it
 * stays compatible with, each emulation version bounded below by a floor.
 */
import { Version } from "../version/version.ts";

/** The versions a component runs with. */
export class EffectiveVersion {
  readonly binaryVersion: Version;
  readonly emulationVersionFloor: Version;
  readonly minCompatibilityVersionFloor: Version;
  #emulationVersion: Version;
  #minCompatibilityVersion: Version;

  /** NewEffectiveVersion: emulates the binary's major.minor, compatible with the minor before. */
  constructor(binaryVersion: Version | string, emulationVersionFloor?: Version, minCompatibilityVersionFloor?: Version) {
    this.binaryVersion = typeof binaryVersion === "string" ? Version.parse(binaryVersion) : binaryVersion;
    this.emulationVersionFloor = emulationVersionFloor ?? Version.majorMinor(0, 0);
    this.minCompatibilityVersionFloor = minCompatibilityVersionFloor ?? Version.majorMinor(0, 0);
    this.#emulationVersion = Version.majorMinor(this.binaryVersion.major, this.binaryVersion.minor);
    this.#minCompatibilityVersion = this.binaryVersion.subtractMinor(1);
  }

  get emulationVersion(): Version {
    return this.#emulationVersion;
  }
  get minCompatibilityVersion(): Version {
    return this.#minCompatibilityVersion;
  }

  /**
   * SetEmulationVersion: keeps major.minor, and moves the min compatibility version to the minor
   * before it (not below its floor).
   */
  setEmulationVersion(v: Version): void {
    this.#emulationVersion = Version.majorMinor(v.major, v.minor);
    const mcv = v.subtractMinor(1);
    this.#minCompatibilityVersion = mcv.lessThan(this.minCompatibilityVersionFloor) ? this.minCompatibilityVersionFloor : mcv;
  }

  /** AllowedEmulationVersionRange: `1.31..1.33 (default=1.33)`, as `--emulated-version`'s help lists it. */
  allowedEmulationVersionRange(): string {
    const bin = Version.majorMinor(this.binaryVersion.major, this.binaryVersion.minor);
    return `${this.emulationVersionFloor.toString()}..${bin.toString()} (default=${this.#emulationVersion.toString()})`;
  }

  /** Validate: the emulation version between its floor and the binary's, and the min compatibility version under it. */
  validate(): string[] {
    const errs: string[] = [];
    const bin = this.binaryVersion.withPatch(0);
    const ev = this.#emulationVersion;
    if (ev.greaterThan(bin) || ev.lessThan(this.emulationVersionFloor))
      errs.push(`emulation version ${ev.toString()} is not between [${this.emulationVersionFloor.toString()}, ${bin.toString()}]`);
    const mcv = this.#minCompatibilityVersion;
    if (mcv.greaterThan(ev) || mcv.lessThan(this.minCompatibilityVersionFloor))
      errs.push(
        `minCompatibilityVersion version ${mcv.toString()} is not between [${this.minCompatibilityVersionFloor.toString()}, ${ev.toString()}]`,
      );
    return errs;
  }
}

/**
 * toVersionMap (compatibility/registry.go): `--emulated-version`'s values, `1.31` (component
 * "kube") or `kube=1.31`, by component; throws upstream's messages for a bad version, a patch
 * version or a component named twice.
 */
export function parseComponentVersions(values: readonly string[]): Map<string, Version> {
  const m = new Map<string, Version>();
  for (const compVer of values) {
    let k = "kube";
    let v = compVer;
    const eq = compVer.indexOf("=");
    if (eq >= 0) {
      k = compVer.slice(0, eq).trim();
      v = compVer.slice(eq + 1).trim();
    }
    const ver = Version.parse(v);
    if (ver.patch !== 0) throw new Error(`patch version not allowed, got: ${k}=${ver.toString()}`);
    const existing = m.get(k);
    if (existing !== undefined) throw new Error(`duplicate version flag, ${k}=${existing.toString()} and ${k}=${ver.toString()}`);
    m.set(k, ver);
  }
  return m;
}
