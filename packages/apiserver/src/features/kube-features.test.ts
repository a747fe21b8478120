import { describe, expect, it } from "vitest";
import {
  allocatorMode,
  defaultFeatureGates,
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
