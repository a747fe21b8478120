/**
 * A versioned feature gate (k8s.io/component-base/featuregate/feature_gate.go featureGate): known
 * features with their VersionedSpecs, the values set by `--feature-gates`, and the emulation version
 * at which defaults, locks and availability are read. One instance per component, passed in:
 * nothing here is global.
 */
import { Version } from "../version/version.ts";
import {
  Alpha,
  Beta,
  Deprecated,
  featureSpecAtEmulationVersion,
  GA,
  PreAlpha,
  sortedVersionedSpecs,
  type FeatureSpec,
  type VersionedSpecs,
} from "./feature-spec.ts";

const allAlpha = "AllAlpha";
const allBeta = "AllBeta";

/** defaultFeatures: the special gates every feature gate knows. */
const specialSpecs: Record<string, VersionedSpecs> = {
  [allAlpha]: [{ default: false, preRelease: Alpha, version: "0.0" }],
  [allBeta]: [{ default: false, preRelease: Beta, version: "0.0" }],
};

/** Go's strconv.ParseBool. */
function parseBool(v: string): boolean | null {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  return null;
}

/** utilerrors.NewAggregate's message: one error as itself, several as `[a, b]`. */
function aggregate(errs: readonly string[]): Error {
  return new Error(errs.length === 1 ? errs[0] : `[${errs.join(", ")}]`);
}

/** A feature gate; `warn` receives upstream's warnings for setting GA or deprecated gates. */
export class FeatureGate {
  #known = new Map<string, VersionedSpecs>(Object.entries(specialSpecs));
  #enabled = new Map<string, boolean>();
  /** The values as set, kept to be checked again at another emulation version (enabledRaw). */
  #enabledRaw = new Map<string, boolean>();
  #emulationVersion: Version;
  readonly #warn: (msg: string) => void;

  /** NewVersionedFeatureGate. */
  constructor(emulationVersion: Version | string, warn: (msg: string) => void = () => {}) {
    this.#emulationVersion = typeof emulationVersion === "string" ? Version.parse(emulationVersion) : emulationVersion;
    this.#warn = warn;
  }

  get emulationVersion(): Version {
    return this.#emulationVersion;
  }

  /** AddVersioned: registers features; a name known with other specs is an error. */
  addVersioned(features: Readonly<Record<string, VersionedSpecs>>): void {
    for (const [name, specs] of Object.entries(features)) {
      const sorted = sortedVersionedSpecs(name, specs);
      const existing = this.#known.get(name);
      if (existing !== undefined) {
        if (JSON.stringify(existing) === JSON.stringify(sorted)) continue;
        throw new Error(`feature gate ${JSON.stringify(name)} with different spec already exists: ${JSON.stringify(existing)}`);
      }
      this.#known.set(name, sorted);
    }
  }

  /** Add: unversioned specs, in effect at every emulation version (version 0.0). */
  add(features: Readonly<Record<string, Omit<FeatureSpec, "version">>>): void {
    this.addVersioned(Object.fromEntries(Object.entries(features).map(([k, s]) => [k, [{ ...s, version: "0.0" }]])));
  }

  /** Set: `--feature-gates` ("A=true,B=false"); throws component-base's messages. */
  set(value: string): void {
    const m = new Map<string, boolean>();
    for (const s of value.split(",")) {
      if (s.length === 0) continue;
      const eq = s.indexOf("=");
      const k = (eq < 0 ? s : s.slice(0, eq)).trim();
      if (eq < 0) throw new Error(`missing bool value for ${k}`);
      const v = s.slice(eq + 1).trim();
      const b = parseBool(v);
      if (b === null) throw new Error(`invalid value of ${k}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
      m.set(k, b);
    }
    this.setFromMap(m);
  }

  /**
   * SetFromMap: records the values (kept even when they fail, to be checked again when the
   * emulation version changes), then applies them at the emulation version or throws.
   */
  setFromMap(m: ReadonlyMap<string, boolean> | Readonly<Record<string, boolean>>): void {
    for (const [k, v] of m instanceof Map ? m : Object.entries(m)) this.#enabledRaw.set(k, v);
    const enabled = new Map(this.#enabled);
    const errs = this.#setFromMap(enabled, this.#enabledRaw, this.#emulationVersion);
    if (errs.length > 0) throw aggregate(errs);
    this.#enabled = enabled;
  }

  /** Validate: the recorded values' errors at the emulation version. */
  validate(): string[] {
    return this.#setFromMap(new Map(), this.#enabledRaw, this.#emulationVersion);
  }

  /**
   * SetEmulationVersion: reads every default, lock and availability at `v` from now on; the values
   * set so far must be valid there, or nothing changes and the errors are thrown.
   */
  setEmulationVersion(v: Version | string): void {
    const ver = typeof v === "string" ? Version.parse(v) : v;
    if (ver.equalTo(this.#emulationVersion)) return;
    const enabled = new Map<string, boolean>();
    const errs = this.#setFromMap(enabled, this.#enabledRaw, ver);
    if (errs.length > 0) throw aggregate(errs);
    this.#enabled = enabled;
    this.#emulationVersion = ver;
  }

  /** unsafeSetFromMap. */
  #setFromMap(enabled: Map<string, boolean>, m: ReadonlyMap<string, boolean>, ver: Version): string[] {
    const errs: string[] = [];
    for (const [k, v] of m) {
      const specs = this.#known.get(k);
      // Upstream returns at the first unknown name.
      if (specs === undefined) return [...errs, `unrecognized feature gate: ${k}`];
      const spec = featureSpecAtEmulationVersion(specs, ver);
      if (spec.lockToDefault === true && spec.default !== v) {
        errs.push(`cannot set feature gate ${k} to ${v}, feature is locked to ${spec.default}`);
        continue;
      }
      if (k === allAlpha || k === allBeta) {
        this.#setUnset(enabled, k === allAlpha ? Alpha : Beta, v, ver);
        enabled.set(k, v);
        continue;
      }
      if (spec.preRelease === PreAlpha) {
        errs.push(`cannot set feature gate ${k} to ${v}, feature is PreAlpha at emulated version ${ver.toString()}`);
        continue;
      }
      enabled.set(k, v);
      if (spec.preRelease === Deprecated) this.#warn(`Setting deprecated feature gate ${k}=${v}. It will be removed in a future release.`);
      else if (spec.preRelease === GA) this.#warn(`Setting GA feature gate ${k}=${v}. It will be removed in a future release.`);
    }
    return errs;
  }

  /** setUnsetAlphaGates / setUnsetBetaGates: AllAlpha or AllBeta sets every gate of that stage not set by name. */
  #setUnset(enabled: Map<string, boolean>, stage: string, v: boolean, ver: Version): void {
    for (const [k, specs] of this.#known) {
      if (k === allAlpha || k === allBeta) continue;
      if (featureSpecAtEmulationVersion(specs, ver).preRelease === stage && !enabled.has(k)) enabled.set(k, v);
    }
  }

  /** Enabled: the value set, else the default at the emulation version; an unknown key throws (upstream panics). */
  enabled(key: string): boolean {
    const v = this.#enabled.get(key);
    if (v !== undefined) return v;
    const specs = this.#known.get(key);
    if (specs === undefined) throw new Error(`feature ${JSON.stringify(key)} is not registered in FeatureGate`);
    return featureSpecAtEmulationVersion(specs, this.#emulationVersion).default;
  }

  /** FeatureSpec: the spec in effect at the emulation version. */
  featureSpec(key: string): FeatureSpec {
    const specs = this.#known.get(key);
    if (specs === undefined) throw new Error(`feature ${JSON.stringify(key)} is not registered in FeatureGate`);
    return featureSpecAtEmulationVersion(specs, this.#emulationVersion);
  }

  /** GetAll: the specs at the emulation version of the features available there (not PreAlpha). */
  getAll(): Map<string, FeatureSpec> {
    const out = new Map<string, FeatureSpec>();
    for (const [k, specs] of this.#known) {
      const spec = featureSpecAtEmulationVersion(specs, this.#emulationVersion);
      if (spec.preRelease !== PreAlpha) out.set(k, spec);
    }
    return out;
  }

  /** KnownFeatures: `Name=true|false (STAGE - default=b)`, sorted; GA, deprecated and PreAlpha ones hidden. */
  knownFeatures(): string[] {
    const out: string[] = [];
    for (const [k, specs] of this.#known) {
      const spec = k === allAlpha || k === allBeta ? specs[0]! : featureSpecAtEmulationVersion(specs, this.#emulationVersion);
      if (spec.preRelease === GA || spec.preRelease === Deprecated || spec.preRelease === PreAlpha) continue;
      out.push(`${k}=true|false (${spec.preRelease} - default=${spec.default})`);
    }
    return out.sort();
  }

  /** ExplicitlySet: the feature was named in `--feature-gates`. */
  explicitlySet(key: string): boolean {
    return this.#enabledRaw.has(key);
  }
}
