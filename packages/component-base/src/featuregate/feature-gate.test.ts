/**
 * Upstream's staging/src/k8s.io/component-base/featuregate/feature_gate_test.go, the versioned
 * tables: TestVersionedFeatureGateFlag, TestVersionedFeatureGateOverride,
 * TestVersionedFeatureGateFlagDefaults, TestVersionedFeatureGateKnownFeatures, TestGetCurrentVersion
 * (featureSpecAtEmulationVersion), and a locked gate at and before its lock.
 */
import { describe, expect, it } from "vitest";
import { Version } from "../version/version.ts";
import { FeatureGate } from "./feature-gate.ts";
import { Alpha, Beta, Deprecated, featureSpecAtEmulationVersion, GA, PreAlpha, type VersionedSpecs } from "./feature-spec.ts";

const all = ["AllAlpha", "AllBeta", "TestGA", "TestAlpha", "TestBeta", "TestLockedFalse", "TestAlphaNoVersion", "TestBetaNoVersion"];
type Row = { arg: string; expect: Record<string, boolean>; parseError?: string };
const expectOf = (on: string[]): Record<string, boolean> => Object.fromEntries(all.map((k) => [k, on.includes(k)]));

describe("TestVersionedFeatureGateFlag", () => {
  const rows: Row[] = [
    { arg: "", expect: expectOf([]) },
    { arg: "fooBarBaz=true", expect: expectOf([]), parseError: "unrecognized feature gate: fooBarBaz" },
    { arg: "AllAlpha=false", expect: expectOf([]) },
    { arg: "AllAlpha=true", expect: expectOf(["AllAlpha", "TestBeta", "TestAlphaNoVersion"]) },
    { arg: "AllAlpha=banana", expect: expectOf([]), parseError: "invalid value of AllAlpha" },
    {
      arg: "AllAlpha=false,TestAlpha=true,TestAlphaNoVersion=true",
      expect: expectOf(["TestAlphaNoVersion"]),
      parseError: "cannot set feature gate TestAlpha to true, feature is PreAlpha at emulated version 1.28",
    },
    { arg: "AllAlpha=false,TestAlphaNoVersion=true", expect: expectOf(["TestAlphaNoVersion"]) },
    {
      arg: "AllAlpha=true,TestAlpha=false,TestAlphaNoVersion=false",
      expect: expectOf([]),
      parseError: "cannot set feature gate TestAlpha to false, feature is PreAlpha at emulated version 1.28",
    },
    { arg: "AllAlpha=true,TestAlphaNoVersion=false", expect: expectOf(["AllAlpha", "TestBeta"]) },
    {
      arg: "TestBeta=true,TestBetaNoVersion=true,TestGA=true,AllAlpha=false",
      expect: expectOf(["TestGA", "TestBeta", "TestBetaNoVersion"]),
    },
    { arg: "AllBeta=false", expect: expectOf([]) },
    { arg: "AllBeta=true", expect: expectOf(["AllBeta", "TestGA", "TestBetaNoVersion"]) },
    { arg: "AllBeta=banana", expect: expectOf([]), parseError: "invalid value of AllBeta" },
    {
      arg: "AllBeta=true,TestBetaNoVersion=false,TestBeta=false,TestGA=false",
      expect: expectOf(["AllBeta"]),
    },
    {
      arg: "TestAlpha=true,AllBeta=false",
      expect: expectOf([]),
      parseError: "cannot set feature gate TestAlpha to true, feature is PreAlpha at emulated version 1.28",
    },
  ];
  it.each(rows)("$arg", ({ arg, expect: want, parseError }) => {
    const f = new FeatureGate("1.29");
    f.setEmulationVersion("1.28");
    f.addVersioned({
      TestGA: [
        { version: "1.29", default: true, preRelease: GA },
        { version: "1.28", default: false, preRelease: Beta },
        { version: "1.27", default: false, preRelease: Alpha },
      ],
      TestAlpha: [{ version: "1.29", default: false, preRelease: Alpha }],
      TestBeta: [
        { version: "1.29", default: false, preRelease: Beta },
        { version: "1.28", default: false, preRelease: Alpha },
      ],
      TestLockedFalse: [
        { version: "1.29", default: false, preRelease: GA, lockToDefault: true },
        { version: "1.28", default: false, preRelease: GA },
      ],
    });
    f.add({ TestAlphaNoVersion: { default: false, preRelease: Alpha }, TestBetaNoVersion: { default: false, preRelease: Beta } });
    if (parseError !== undefined) {
      expect(() => f.set(arg)).toThrow(parseError);
      return;
    }
    f.set(arg);
    for (const [k, v] of Object.entries(want)) expect([k, f.enabled(k)]).toEqual([k, v]);
  });
});

describe("TestVersionedFeatureGateOverride", () => {
  it("sets gates at the binary version and refuses an emulation version where a set gate is PreAlpha", () => {
    const f = new FeatureGate("1.29");
    f.addVersioned({
      TestAlpha: [{ version: "1.29", default: false, preRelease: Alpha }],
      TestBeta: [
        { version: "1.29", default: false, preRelease: Beta },
        { version: "1.28", default: false, preRelease: Alpha },
      ],
    });
    expect([f.enabled("TestAlpha"), f.enabled("TestBeta")]).toEqual([false, false]);
    expect(f.validate()).toEqual([]);
    f.set("TestAlpha=true,TestBeta=true");
    expect([f.enabled("TestAlpha"), f.enabled("TestBeta")]).toEqual([true, true]);
    f.set("TestAlpha=false");
    expect([f.enabled("TestAlpha"), f.enabled("TestBeta")]).toEqual([false, true]);
    expect(f.validate()).toEqual([]);
    expect(() => f.setEmulationVersion("1.28")).toThrow(
      "cannot set feature gate TestAlpha to false, feature is PreAlpha at emulated version 1.28",
    );
    expect(f.emulationVersion.toString()).toBe("1.29");
  });
});

describe("TestVersionedFeatureGateFlagDefaults", () => {
  it("reads defaults and specs at the emulation version", () => {
    const f = new FeatureGate("1.29");
    f.setEmulationVersion("1.28");
    f.addVersioned({
      TestGA: [
        { version: "1.29", default: true, preRelease: GA },
        { version: "1.27", default: true, preRelease: Beta },
        { version: "1.25", default: true, preRelease: Alpha },
      ],
      TestAlpha: [{ version: "1.29", default: false, preRelease: Alpha }],
      TestBeta: [
        { version: "1.29", default: true, preRelease: Beta },
        { version: "1.28", default: false, preRelease: Beta },
        { version: "1.26", default: false, preRelease: Alpha },
      ],
    });
    expect(f.enabled("TestAlpha")).toBe(false);
    expect(f.featureSpec("TestAlpha")).toMatchObject({ preRelease: PreAlpha, version: "0.0" });
    expect(f.enabled("TestBeta")).toBe(false);
    expect(f.featureSpec("TestBeta")).toMatchObject({ preRelease: Beta, version: "1.28" });
    expect(f.enabled("TestGA")).toBe(true);
    expect(f.featureSpec("TestGA")).toMatchObject({ preRelease: Beta, version: "1.27" });
    expect(() => f.featureSpec("NonExist")).toThrow('feature "NonExist" is not registered in FeatureGate');
    expect([...f.getAll().keys()].sort()).toEqual(["AllAlpha", "AllBeta", "TestBeta", "TestGA"]);
  });
});

describe("TestVersionedFeatureGateKnownFeatures", () => {
  it("lists alpha and beta gates at the emulation version, not PreAlpha, GA or deprecated ones", () => {
    const f = new FeatureGate("1.29");
    f.setEmulationVersion("1.28");
    f.addVersioned({
      TestGA: [
        { version: "1.27", default: false, preRelease: Beta },
        { version: "1.28", default: true, preRelease: GA },
      ],
      TestPreAlpha: [{ version: "1.29", default: false, preRelease: Alpha }],
      TestAlpha: [{ version: "1.28", default: false, preRelease: Alpha }],
      TestBeta: [{ version: "1.28", default: false, preRelease: Beta }],
      TestDeprecated: [
        { version: "1.28", default: true, preRelease: Deprecated },
        { version: "1.26", default: false, preRelease: Alpha },
      ],
    });
    f.add({
      TestAlphaNoVersion: { default: false, preRelease: Alpha },
      TestBetaNoVersion: { default: false, preRelease: Beta },
      TestGANoVersion: { default: false, preRelease: GA },
      TestDeprecatedNoVersion: { default: false, preRelease: Deprecated },
    });
    const names = f.knownFeatures().map((s) => s.split("=")[0]);
    expect(names).toEqual(["AllAlpha", "AllBeta", "TestAlpha", "TestAlphaNoVersion", "TestBeta", "TestBetaNoVersion"]);
    expect(f.knownFeatures()).toContain("TestBeta=true|false (BETA - default=false)");
  });
});

describe("TestGetCurrentVersion", () => {
  const specs: VersionedSpecs = [
    { version: "1.25", default: false, preRelease: Alpha },
    { version: "1.28", default: false, preRelease: Beta },
    { version: "1.29", default: true, preRelease: GA },
  ];
  it.each([
    ["1.30", { version: "1.29", default: true, preRelease: GA }],
    ["1.29", { version: "1.29", default: true, preRelease: GA }],
    ["1.28", { version: "1.28", default: false, preRelease: Beta }],
    ["1.27", { version: "1.25", default: false, preRelease: Alpha }],
    ["1.25", { version: "1.25", default: false, preRelease: Alpha }],
    ["1.24", { version: "0.0", default: false, preRelease: PreAlpha }],
  ])("getCurrentVersion for emulationVersion %s", (v, want) => {
    expect(featureSpecAtEmulationVersion(specs, Version.parse(v))).toEqual(want);
  });
});

describe("locked gates at the emulation version", () => {
  const specs = {
    StrictCost: [
      { version: "1.30", default: false, preRelease: Beta },
      { version: "1.32", default: true, preRelease: GA, lockToDefault: true },
    ],
  };
  it("refuses to change a gate locked at the emulation version", () => {
    const f = new FeatureGate("1.33");
    f.addVersioned(specs);
    expect(() => f.set("StrictCost=false")).toThrow("cannot set feature gate StrictCost to false, feature is locked to true");
    expect(f.enabled("StrictCost")).toBe(true);
  });
  it("sets it at an emulation version before the lock, and keeps the value checked when the version moves", () => {
    const f = new FeatureGate("1.33");
    f.addVersioned(specs);
    f.setEmulationVersion("1.31");
    f.set("StrictCost=false");
    expect(f.enabled("StrictCost")).toBe(false);
    expect(() => f.setEmulationVersion("1.33")).toThrow("cannot set feature gate StrictCost to false, feature is locked to true");
    expect(f.emulationVersion.toString()).toBe("1.31");
  });
  it("reports several errors as an aggregate", () => {
    const f = new FeatureGate("1.33");
    f.addVersioned({ ...specs, Other: specs.StrictCost });
    expect(() => f.set("StrictCost=false,Other=false")).toThrow(
      "[cannot set feature gate StrictCost to false, feature is locked to true, cannot set feature gate Other to false, feature is locked to true]",
    );
  });
  it("warns when a GA gate is set", () => {
    const warnings: string[] = [];
    const f = new FeatureGate("1.33", (m) => warnings.push(m));
    f.addVersioned(specs);
    f.set("StrictCost=true");
    expect(warnings).toEqual(["Setting GA feature gate StrictCost=true. It will be removed in a future release."]);
  });
});

describe("AddVersioned", () => {
  it.each<[string, VersionedSpecs, string]>([
    ["patch", [{ version: "1.28.1", default: false, preRelease: Alpha }], 'feature "F" specified patch version: 1.28.1'],
    [
      "regression",
      [
        { version: "1.28", default: true, preRelease: GA },
        { version: "1.29", default: false, preRelease: Beta },
      ],
      'feature "F" regresses stability from more stable level to BETA in 1.29',
    ],
    [
      "duplicate version",
      [
        { version: "1.28", default: false, preRelease: Alpha },
        { version: "1.28", default: false, preRelease: Beta },
      ],
      'feature "F" lists version transitions in non-increasing order (1.28 <= 1.28)',
    ],
  ])("refuses %s", (_n, specs, err) => {
    expect(() => new FeatureGate("1.29").addVersioned({ F: specs })).toThrow(err);
  });
});
