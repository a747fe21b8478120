import { describe, expect, it } from "vitest";
import {
  allocatorMode,
  defaultFeatureGates,
  defaultFeatureGatesAt,
  featureGatesForMode,
  formatFeatureGates,
  parseFeatureGates,
  type AllocatorMode,
} from "./kube-features.ts";

describe("parseFeatureGates", () => {
  it("defaults to the 1.33 gates: dual-write", () => {
    expect(parseFeatureGates("")).toEqual({
      MultiCIDRServiceAllocator: true,
      DisableAllocatorDualWrite: false,
      AuthorizeWithSelectors: true,
      StrictCostEnforcementForVAP: true,
      StrictCostEnforcementForWebhooks: true,
    });
    expect(allocatorMode(defaultFeatureGates)).toBe("dual-write");
  });

  it.each([
    ["MultiCIDRServiceAllocator=false", "bitmap"],
    ["DisableAllocatorDualWrite=true", "ipaddress"],
    ["MultiCIDRServiceAllocator=false,DisableAllocatorDualWrite=true", "bitmap"],
    [" MultiCIDRServiceAllocator = T , DisableAllocatorDualWrite=0", "dual-write"],
  ])("%s -> %s", (flag, mode) => {
    expect(allocatorMode(parseFeatureGates(flag))).toBe(mode);
  });

  it("parses AuthorizeWithSelectors (beta, on by default since 1.32)", () => {
    expect(parseFeatureGates("AuthorizeWithSelectors=false").AuthorizeWithSelectors).toBe(false);
    expect(allocatorMode(parseFeatureGates("AuthorizeWithSelectors=false"))).toBe("dual-write");
  });

  it.each([
    ["Foo=true", "unrecognized feature gate: Foo"],
    ["MultiCIDRServiceAllocator", "missing bool value for MultiCIDRServiceAllocator"],
    [
      "DisableAllocatorDualWrite=yes",
      'invalid value of DisableAllocatorDualWrite=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
  ])("rejects %s", (flag, msg) => {
    expect(() => parseFeatureGates(flag)).toThrow(msg);
  });

  it("round-trips modes through gates and flags", () => {
    for (const mode of ["bitmap", "dual-write", "ipaddress"] as AllocatorMode[]) {
      const gates = featureGatesForMode(mode);
      expect(allocatorMode(gates)).toBe(mode);
      expect(parseFeatureGates(formatFeatureGates(gates))).toEqual(gates);
    }
  });
});

describe("feature gates at the emulated version (versioned_kube_features.go)", () => {
  it.each([
    [
      "1.33",
      {
        MultiCIDRServiceAllocator: true,
        DisableAllocatorDualWrite: false,
        AuthorizeWithSelectors: true,
        StrictCostEnforcementForVAP: true,
      },
    ],
    [
      "1.32",
      {
        MultiCIDRServiceAllocator: false,
        DisableAllocatorDualWrite: false,
        AuthorizeWithSelectors: true,
        StrictCostEnforcementForVAP: true,
      },
    ],
    [
      "1.31",
      {
        MultiCIDRServiceAllocator: false,
        DisableAllocatorDualWrite: false,
        AuthorizeWithSelectors: false,
        StrictCostEnforcementForVAP: false,
      },
    ],
  ])("defaults at %s", (v, want) => {
    expect(defaultFeatureGatesAt(v)).toMatchObject(want);
  });

  it("emulating 1.31 or 1.32 allocates with the bitmap, as those releases did by default", () => {
    expect(allocatorMode(defaultFeatureGatesAt("1.31"))).toBe("bitmap");
    expect(allocatorMode(defaultFeatureGatesAt("1.32"))).toBe("bitmap");
  });

  it.each([
    [
      "StrictCostEnforcementForVAP=false",
      "1.33",
      "cannot set feature gate StrictCostEnforcementForVAP to false, feature is locked to true",
    ],
    [
      "StrictCostEnforcementForWebhooks=false",
      "1.32",
      "cannot set feature gate StrictCostEnforcementForWebhooks to false, feature is locked to true",
    ],
  ])("refuses %s at %s (GA and locked since 1.32)", (flag, v, msg) => {
    expect(() => parseFeatureGates(flag, v)).toThrow(msg);
  });

  it("turns the strict cost gates off at 1.31 (beta there)", () => {
    expect(parseFeatureGates("StrictCostEnforcementForVAP=false", "1.31")).toMatchObject({
      StrictCostEnforcementForVAP: false,
      StrictCostEnforcementForWebhooks: false,
    });
    expect(parseFeatureGates("StrictCostEnforcementForVAP=true", "1.31").StrictCostEnforcementForVAP).toBe(true);
  });

  it("warns when a GA gate is set, as component-base does", () => {
    const warnings: string[] = [];
    parseFeatureGates("MultiCIDRServiceAllocator=false", "1.33", (m) => warnings.push(m));
    expect(warnings).toEqual(["Setting GA feature gate MultiCIDRServiceAllocator=false. It will be removed in a future release."]);
  });
});
