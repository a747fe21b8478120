import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../errors/index.ts";
import {
  isValidCIDR,
  isValidCIDRForLegacyField,
  isValidInterfaceAddress,
  isValidIP,
  isValidIPForLegacyField,
  validateCanonicalCIDR,
  validateCanonicalIP,
} from "./validation.ts";
import { getWarningsForCIDR, getWarningsForIP } from "./warnings.ts";

const details = (errs: ReturnType<typeof isValidIP>): string[] => errs.map((e) => e.detail);
const BAD_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const BAD_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

describe("IP validators", () => {
  // [value, legacy (sloppy), legacy strict, canonical]
  it.each<[string, string[], string[], string[]]>([
    ["1.2.3.4", [], [], []],
    ["2001:db8::ffff", [], [], []],
    ["", [BAD_IP], [BAD_IP], [BAD_IP]],
    ["None", [BAD_IP], [BAD_IP], [BAD_IP]],
    ["fe80::1%eth0", [BAD_IP], [BAD_IP], [BAD_IP]],
    ["1.2.3.04", [], ["must not have leading 0s"], ["must not have leading 0s"]],
    ["::ffff:1.2.3.4", [], ["must not be an IPv4-mapped IPv6 address"], ["must not be an IPv4-mapped IPv6 address"]],
    ["::ffff:01.2.3.4", [], ["must not have leading 0s"], ["must not have leading 0s"]],
    ["2001:DB8::FFFF", [], [], ['must be in canonical form ("2001:db8::ffff")']],
    ["2001:4860:4860:0::8888", [], [], ['must be in canonical form ("2001:4860:4860::8888")']],
  ])("%j", (value, legacy, strict, canonical) => {
    expect(details(isValidIP("spec.clusterIPs[0]", value))).toEqual(legacy);
    expect(details(isValidIPForLegacyField("spec.clusterIPs[0]", value, false))).toEqual(legacy);
    expect(details(isValidIPForLegacyField("spec.clusterIPs[0]", value, true))).toEqual(strict);
    expect(details(validateCanonicalIP("metadata.name", value))).toEqual(canonical);
  });

  it("renders as kube-apiserver does", () => {
    expect(fieldErrorString(isValidIP("spec.clusterIPs[1]", "None")[0]!)).toBe(`spec.clusterIPs[1]: Invalid value: "None": ${BAD_IP}`);
  });
});

describe("CIDR validators", () => {
  // [value, legacy strict, canonical (ServiceCIDR)]
  it.each<[string, string[], string[]]>([
    ["192.168.0.0/24", [], []],
    ["fd00:1234::/64", [], []],
    ["asdasdasd", [BAD_CIDR], [BAD_CIDR]],
    ["192.168.0.1", [BAD_CIDR], [BAD_CIDR]],
    ["192.168.0.1/24", ["must not have bits set beyond the prefix length"], ["must not have bits set beyond the prefix length"]],
    ["fd00:1234::2/64", ["must not have bits set beyond the prefix length"], ["must not have bits set beyond the prefix length"]],
    ["FD00:1234::2/64", ["must not have bits set beyond the prefix length"], ["must not have bits set beyond the prefix length"]],
    ["FD00:1234::/64", [], ['must be in canonical form ("fd00:1234::/64")']],
    ["192.168.007.0/24", ["must not have leading 0s in IP or prefix length"], ["must not have leading 0s in IP or prefix length"]],
    ["10.0.0.0/08", ["must not have leading 0s in IP or prefix length"], ["must not have leading 0s in IP or prefix length"]],
    ["::ffff:1.2.3.0/120", ["must not have an IPv4-mapped IPv6 address"], ["must not have an IPv4-mapped IPv6 address"]],
    ["0.0.0.0/0", [], []],
    ["::/0", [], []],
  ])("%j", (value, strict, canonical) => {
    const legacy = strict.includes(BAD_CIDR) ? [BAD_CIDR] : [];
    expect(details(isValidCIDR("spec.cidrs[0]", value))).toEqual(legacy);
    expect(details(isValidCIDRForLegacyField("spec.cidrs[0]", value, false))).toEqual(legacy);
    expect(details(isValidCIDRForLegacyField("spec.cidrs[0]", value, true))).toEqual(strict);
    expect(details(validateCanonicalCIDR("spec.cidrs[0]", value))).toEqual(canonical);
  });

  it.each<[string, string[]]>([
    ["192.168.1.5/24", []],
    ["2001:db8::1/64", []],
    ["192.168.1.5", ["must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)"]],
    ["192.168.001.5/24", ['must be in canonical form ("192.168.1.5/24")']],
    ["::ffff:192.168.0.1/120", ['must be in canonical form ("192.168.0.1/24")']],
    ["2001:DB8::1/64", ['must be in canonical form ("2001:db8::1/64")']],
  ])("interface address %j", (value, want) => {
    expect(details(isValidInterfaceAddress("ip", value))).toEqual(want);
  });
});

describe("warnings", () => {
  it.each<[string, string[]]>([
    ["1.2.3.4", []],
    ["bogus", []],
    ["1.2.3.04", ['f: non-standard IP address "1.2.3.04" will be considered invalid in a future Kubernetes release: use "1.2.3.4"']],
    [
      "::ffff:1.2.3.4",
      ['f: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"'],
    ],
    ["2001:db8:0:0::1", ['f: IPv6 address "2001:db8:0:0::1" should be in RFC 5952 canonical format ("2001:db8::1")']],
  ])("IP %j", (value, want) => {
    expect(getWarningsForIP("f", value)).toEqual(want);
  });

  it.each<[string, string[]]>([
    ["10.0.0.0/8", []],
    ["10.0.0.1/8", ['f: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)']],
    [
      "010.0.0.0/8",
      ['f: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"'],
    ],
    ["FD00::/64", ['f: IPv6 CIDR value "FD00::/64" should be in RFC 5952 canonical format ("fd00::/64")']],
    ["fd00::1/64", ['f: CIDR value "fd00::1/64" is ambiguous in this context (should be "fd00::/64" or "fd00::1/128"?)']],
  ])("CIDR %j", (value, want) => {
    expect(getWarningsForCIDR("f", value)).toEqual(want);
  });
});
