/**
 * /version under emulation (component-base/compatibility effectiveVersion.Info, 1.33's version.Info
 * with emulationMajor/emulationMinor and minCompatibilityMajor/minCompatibilityMinor).
 */
import { describe, expect, it } from "vitest";
import { effectiveVersionFromFlag } from "../util/compatibility/version.ts";
import { serverVersion } from "./version.ts";

describe("serverVersion", () => {
  it("reports the binary's 1.33, emulating 1.33, compatible with 1.32", () => {
    expect(serverVersion()).toMatchObject({
      major: "1",
      minor: "33",
      emulationMajor: "1",
      emulationMinor: "33",
      minCompatibilityMajor: "1",
      minCompatibilityMinor: "32",
      gitVersion: "v1.33.0+servicenet",
    });
  });

  it("keeps major, minor and gitVersion under --emulated-version 1.31, and reports the emulated 1.31", () => {
    const v = serverVersion(effectiveVersionFromFlag(["1.31"]));
    expect(v).toMatchObject({
      major: "1",
      minor: "33",
      emulationMinor: "31",
      minCompatibilityMinor: "30",
      gitVersion: "v1.33.0+servicenet",
    });
    // upstream's field order (kubectl prints the document as served).
    expect(Object.keys(v).slice(0, 7)).toEqual([
      "major",
      "minor",
      "emulationMajor",
      "emulationMinor",
      "minCompatibilityMajor",
      "minCompatibilityMinor",
      "gitVersion",
    ]);
  });
});
