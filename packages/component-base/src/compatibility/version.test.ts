/**
 * Upstream's staging/src/k8s.io/component-base/compatibility/version_test.go (TestValidate: the
 * emulation and min compatibility versions against their floors) and registry_test.go's flag
 * parsing (toVersionMap: `kube=1.31`, patch versions and duplicates refused).
 */
import { describe, expect, it } from "vitest";
import { Version } from "../version/version.ts";
import { EffectiveVersion, parseComponentVersions } from "./version.ts";

describe("TestValidate", () => {
  const floor = Version.parse("1.31");
  it.each<[string, string, string[]]>([
    ["1.33", "1.33", []],
    ["emulation at the floor", "1.31", []],
    ["emulation below the floor", "1.30", ["emulation version 1.30 is not between [1.31, 1.33.0]"]],
    ["emulation above the binary", "1.34", ["emulation version 1.34 is not between [1.31, 1.33.0]"]],
  ])("%s", (_n, emulation, errs) => {
    const v = new EffectiveVersion("1.33.0", floor, floor.subtractMinor(1));
    v.setEmulationVersion(Version.parse(emulation));
    expect(v.validate()).toEqual(errs);
  });

  it("moves the min compatibility version with the emulation version, not below its floor", () => {
    const v = new EffectiveVersion("1.33.0", floor, Version.parse("1.31"));
    expect(v.minCompatibilityVersion.toString()).toBe("1.32");
    v.setEmulationVersion(Version.parse("1.31"));
    expect([v.emulationVersion.toString(), v.minCompatibilityVersion.toString()]).toEqual(["1.31", "1.31"]);
    expect(v.allowedEmulationVersionRange()).toBe("1.31..1.33 (default=1.31)");
  });
});

describe("parseComponentVersions (toVersionMap)", () => {
  it("reads a bare version as kube's and a component=version pair", () => {
    expect([...parseComponentVersions(["1.31"])].map(([k, v]) => `${k}=${v.toString()}`)).toEqual(["kube=1.31"]);
    expect([...parseComponentVersions(["kube = 1.32", "wardle=1.2"])].map(([k, v]) => `${k}=${v.toString()}`)).toEqual([
      "kube=1.32",
      "wardle=1.2",
    ]);
  });
  it.each([
    [["1.31.1"], "patch version not allowed, got: kube=1.31.1"],
    [["kube=1.31", "1.32"], "duplicate version flag, kube=1.31 and kube=1.32"],
    [["kube=x"], 'could not parse "x" as version'],
    [["1"], 'illegal version string "1"'],
  ])("refuses %j", (values, err) => {
    expect(() => parseComponentVersions(values)).toThrow(err);
  });
});
