import { formatCIDR } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { newAllocatorsFromFlags, parseServiceClusterIPRanges } from "./from-flags.ts";

describe("parseServiceClusterIPRanges (kube-apiserver flag validation)", () => {
  it.each([
    ["10.0.0.0/16", "10.0.0.0/16", null],
    ["2000::/108", "2000::/108", null],
    ["10.0.0.0/16,2000::/108", "10.0.0.0/16", "2000::/108"],
    ["2000::/108, 10.0.0.0/16", "2000::/108", "10.0.0.0/16"],
    ["10.0.0.0/12", "10.0.0.0/12", null],
  ])("%s", (flag, primary, secondary) => {
    const r = parseServiceClusterIPRanges(flag);
    if ("errors" in r) throw new Error(r.errors.join());
    expect(formatCIDR(r.primary)).toBe(primary);
    expect(r.secondary ? formatCIDR(r.secondary) : null).toBe(secondary);
  });

  it.each([
    ["", "--service-cluster-ip-range must contain at least one valid cidr"],
    ["10.0.0.0/16,2000::/108,10.1.0.0/16", "--service-cluster-ip-range must not contain more than two entries"],
    ["10.0.0.0/16,10.1.0.0/16", "--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family"],
    ["10.0.0.0/11", "specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12"],
    ["2000::/107", "specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108"],
    ["10.0.0.0/16,2000::/64", "specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108"],
  ])("%j fails", (flag, msg) => {
    const r = parseServiceClusterIPRanges(flag);
    expect("errors" in r && r.errors).toContain(msg);
  });

  it("the size limit is lifted when no bitmap backs the range", () => {
    expect("errors" in parseServiceClusterIPRanges("fd00::/64", false)).toBe(false);
  });
});

describe("newAllocatorsFromFlags", () => {
  it("builds one allocator per family, primary first, with the node port range", async () => {
    const { alloc, ranges, ports } = newAllocatorsFromFlags({
      serviceClusterIPRange: "fd00::/108,10.96.0.0/16",
      serviceNodePortRange: "31000-31099",
    });
    expect(alloc.defaultServiceIPFamily).toBe("IPv6");
    expect([...ranges.keys()]).toEqual(["IPv6", "IPv4"]);
    expect(alloc.isDualStack()).toBe(true);
    expect(ports.free()).toBe(100);
  });

  it("throws the flag errors", () => {
    expect(() => newAllocatorsFromFlags({ serviceClusterIPRange: "10.0.0.0/16,10.1.0.0/16" })).toThrow("must be of different IP family");
  });
});
