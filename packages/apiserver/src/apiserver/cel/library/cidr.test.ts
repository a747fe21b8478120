/** TestCIDR (k8s.io/apiserver/pkg/cel/library/cidr_test.go). */
import { describe, expect, it } from "vitest";
import { run } from "../testing.ts";

const cases: { name: string; expr: string; result?: unknown; runtimeErr?: RegExp; compileErr?: RegExp }[] = [
  {
    name: "compilation error for cidr(int)",
    expr: `cidr(192168)`,
    compileErr: /found no matching overload for 'cidr' applied to '\(int\)'/,
  },
  { name: "parse ipv4", expr: `cidr(dyn("192.168.0.0/24"))`, result: "192.168.0.0/24" },
  {
    name: "parse invalid ipv4",
    expr: `cidr("192.168.0.0/")`,
    runtimeErr:
      /^network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix\("192.168.0.0\/"\)/,
  },
  { name: "contains IP ipv4 (IP)", expr: `cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))`, result: true },
  { name: "does not contain IP ipv4 (IP)", expr: `cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))`, result: false },
  { name: "contains IP ipv4 (string)", expr: `cidr("192.168.0.0/24").containsIP("192.168.0.1")`, result: true },
  { name: "does not contain IP ipv4 (string)", expr: `cidr("192.168.0.0/24").containsIP("192.168.1.1")`, result: false },
  { name: "contains CIDR ipv4 (CIDR)", expr: `cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))`, result: true },
  { name: "does not contain IP ipv4 (CIDR)", expr: `cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))`, result: false },
  { name: "contains CIDR ipv4 (string)", expr: `cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")`, result: true },
  { name: "does not contain CIDR ipv4 (string)", expr: `cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")`, result: false },
  { name: "returns IP ipv4", expr: `cidr("192.168.0.0/24").ip()`, result: "192.168.0.0" },
  { name: "masks masked ipv4", expr: `cidr("192.168.0.0/24").masked()`, result: "192.168.0.0/24" },
  { name: "masks unmasked ipv4", expr: `cidr("192.168.0.1/24").masked()`, result: "192.168.0.0/24" },
  { name: "returns prefix length ipv4", expr: `cidr("192.168.0.0/24").prefixLength()`, result: 24 },
  { name: "parse ipv6", expr: `cidr("2001:db8::/32")`, result: "2001:db8::/32" },
  { name: "parse invalid ipv6", expr: `cidr("2001:db8::/")`, runtimeErr: /^network address parse error during conversion from string/ },
  { name: "contains IP ipv6 (IP)", expr: `cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))`, result: true },
  { name: "does not contain IP ipv6 (IP)", expr: `cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))`, result: false },
  { name: "contains IP ipv6 (string)", expr: `cidr("2001:db8::/32").containsIP("2001:db8::1")`, result: true },
  { name: "does not contain IP ipv6 (string)", expr: `cidr("2001:db8::/32").containsIP("2001:dc8::1")`, result: false },
  { name: "contains CIDR ipv6 (CIDR)", expr: `cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))`, result: true },
  { name: "does not contain IP ipv6 (CIDR)", expr: `cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))`, result: false },
  { name: "contains CIDR ipv6 (string)", expr: `cidr("2001:db8::/32").containsCIDR("2001:db8::/33")`, result: true },
  { name: "does not contain CIDR ipv6 (string)", expr: `cidr("2001:db8::/32").containsCIDR("2001:db8::/31")`, result: false },
  { name: "returns IP ipv6", expr: `cidr("2001:db8::/32").ip()`, result: "2001:db8::" },
  { name: "masks masked ipv6", expr: `cidr("2001:db8::/32").masked()`, result: "2001:db8::/32" },
  { name: "masks unmasked ipv6", expr: `cidr("2001:db8:1::/32").masked()`, result: "2001:db8::/32" },
  { name: "returns prefix length ipv6", expr: `cidr("2001:db8::/32").prefixLength()`, result: 32 },
  { name: "converting a CIDR to a string", expr: `string(cidr("192.168.0.0/24"))`, result: "192.168.0.0/24" },
  { name: "the IP of an unmasked CIDR keeps its host bits", expr: `string(cidr("192.168.0.1/24").ip())`, result: "192.168.0.1" },
];

describe("TestCIDR", () => {
  it.each(cases)("$name", ({ expr, result, runtimeErr, compileErr }) => {
    const got = run(expr);
    if (compileErr) expect(got).toMatchObject({ compileErr: expect.stringMatching(compileErr) });
    else if (runtimeErr) expect(got).toMatchObject({ runtimeErr: expect.stringMatching(runtimeErr) });
    else expect(got).toEqual({ value: result });
  });
});
