import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import { setDefaultsNetworkPolicy } from "./defaults.ts";
import { NetworkPolicySchema, type NetworkPolicy } from "./network-policy-types.ts";
import { validateNetworkPolicy, validateNetworkPolicyUpdate, validationOptionsForNetworking } from "./network-policy-validation.ts";

const np = (spec: unknown, name = "bar"): NetworkPolicy =>
  NetworkPolicySchema.parse({ metadata: { name, namespace: "foo", resourceVersion: "1" }, spec });
const msgs = (p: NetworkPolicy): string[] => validateNetworkPolicy(p, validationOptionsForNetworking(undefined)).map(fieldErrorString);

const sel = { matchLabels: { a: "b" } };

describe("validateNetworkPolicy (upstream TestValidateNetworkPolicy successCases)", () => {
  it.each<[string, unknown]>([
    ["empty spec", { podSelector: sel }],
    ["ingress from pods", { podSelector: sel, ingress: [{ from: [{ podSelector: { matchLabels: { c: "d" } } }] }] }],
    [
      "ports with protocols",
      {
        podSelector: sel,
        ingress: [
          {
            ports: [
              { protocol: "TCP", port: 80 },
              { protocol: "UDP", port: "dns" },
              { protocol: "SCTP", port: 7777 },
            ],
          },
        ],
      },
    ],
    ["endPort range", { podSelector: sel, egress: [{ ports: [{ port: 30000, endPort: 32768 }] }] }],
    ["endPort equal to port", { podSelector: sel, egress: [{ ports: [{ protocol: "UDP", port: 32000, endPort: 32000 }] }] }],
    [
      "ipBlock with except",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.0/16", except: ["192.168.3.0/24", "192.168.4.0/24"] } }] }] },
    ],
    ["ipv6 ipBlock", { podSelector: sel, egress: [{ to: [{ ipBlock: { cidr: "fd00:192:168::/48", except: ["fd00:192:168:3::/64"] } }] }] }],
    ["namespace and pod selector together", { podSelector: sel, ingress: [{ from: [{ namespaceSelector: sel, podSelector: sel }] }] }],
    ["policyTypes Egress", { podSelector: sel, policyTypes: ["Egress"] }],
    ["policyTypes both", { podSelector: sel, policyTypes: ["Ingress", "Egress"] }],
    ["legacy CIDR with host bits", { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.1/16" } }] }] }],
  ])("%s", (_name, spec) => {
    expect(msgs(np(spec))).toEqual([]);
  });
});

describe("validateNetworkPolicy (upstream TestValidateNetworkPolicy errorCases)", () => {
  it.each<[string, unknown, string[]]>([
    [
      "namespaceSelector and podSelector may not be empty peer",
      { podSelector: sel, ingress: [{ from: [{}] }] },
      ["spec.ingress[0].from[0]: Required value: must specify a peer"],
    ],
    [
      "invalid ingress.ports.protocol",
      { podSelector: sel, ingress: [{ ports: [{ protocol: "FOO", port: 80 }] }] },
      ['spec.ingress[0].ports[0].protocol: Unsupported value: "FOO": supported values: "TCP", "UDP", "SCTP"'],
    ],
    [
      "invalid ingress.ports.port (int)",
      { podSelector: sel, ingress: [{ ports: [{ protocol: "TCP", port: 123456789 }] }] },
      ["spec.ingress[0].ports[0].port: Invalid value: 123456789: must be between 1 and 65535, inclusive"],
    ],
    [
      "invalid ingress.ports.port (str)",
      { podSelector: sel, ingress: [{ ports: [{ protocol: "TCP", port: "!@#$" }] }] },
      [
        'spec.ingress[0].ports[0].port: Invalid value: "!@#$": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.ingress[0].ports[0].port: Invalid value: "!@#$": must contain at least one letter (a-z)',
      ],
    ],
    [
      "missing ingress.from.ipBlock.cidr",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "" } }] }] },
      ["spec.ingress[0].from[0].ipBlock.cidr: Required value"],
    ],
    [
      "invalid ingress.from.ipBlock",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "192.168.1.1", except: ["192.168.2.1/24"] } }] }] },
      [
        'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "192.168.1.1": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    [
      "except field is an empty string",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "192.168.8.0/24", except: ["", " "] } }] }] },
      [
        'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        'spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: " ": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    [
      "except IP is outside of CIDR range",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "192.168.8.0/24", except: ["192.168.9.1/24"] } }] }] },
      ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "192.168.9.1/24": must be a strict subset of `cidr`'],
    ],
    [
      "except IP is not strictly within CIDR range",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.0/24", except: ["192.168.0.0/24"] } }] }] },
      ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`'],
    ],
    [
      "except IPv6 is outside of CIDR range",
      { podSelector: sel, ingress: [{ from: [{ ipBlock: { cidr: "fd00:192:168:1::/64", except: ["fd00:192:168:2::/64"] } }] }] },
      ['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "fd00:192:168:2::/64": must be a strict subset of `cidr`'],
    ],
    [
      "ipBlock with another peer",
      { podSelector: sel, egress: [{ to: [{ namespaceSelector: sel, ipBlock: { cidr: "10.0.0.0/8" } }] }] },
      ["spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer"],
    ],
    [
      "invalid policyTypes",
      { podSelector: sel, policyTypes: ["foo", "bar"] },
      [
        'spec.policyTypes[0]: Unsupported value: "foo": supported values: "Ingress", "Egress"',
        'spec.policyTypes[1]: Unsupported value: "bar": supported values: "Ingress", "Egress"',
      ],
    ],
    [
      "too many policyTypes",
      { podSelector: sel, policyTypes: ["foo", "bar", "baz"] },
      ['spec.policyTypes: Invalid value: []networking.PolicyType{"foo", "bar", "baz"}: may not specify more than two policyTypes'],
    ],
    [
      "multiple ports defined, one port range is invalid",
      {
        podSelector: sel,
        egress: [
          {
            ports: [
              { protocol: "UDP", port: 35000, endPort: 32768 },
              { port: 32000, endPort: 32768 },
            ],
          },
        ],
      },
      ["spec.egress[0].ports[0].endPort: Invalid value: 32768: must be greater than or equal to `port`"],
    ],
    [
      "endPort defined with named/string port",
      { podSelector: sel, egress: [{ ports: [{ protocol: "UDP", port: "dns", endPort: 32768 }] }] },
      ["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is non-numeric"],
    ],
    [
      "endPort defined without port defined",
      { podSelector: sel, egress: [{ ports: [{ protocol: "TCP", endPort: 32768 }] }] },
      ["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is not specified"],
    ],
    [
      "port is greater than endPort",
      { podSelector: sel, egress: [{ ports: [{ protocol: "SCTP", port: 35000, endPort: 32768 }] }] },
      ["spec.egress[0].ports[0].endPort: Invalid value: 32768: must be greater than or equal to `port`"],
    ],
    [
      "endPort is out of range",
      { podSelector: sel, egress: [{ ports: [{ protocol: "TCP", port: 30000, endPort: 65537 }] }] },
      ["spec.egress[0].ports[0].endPort: Invalid value: 65537: must be between 1 and 65535, inclusive"],
    ],
    [
      "invalid podSelector label value",
      { podSelector: { matchLabels: { a: "b c" } } },
      [expect.stringMatching(/^spec\.podSelector\.matchLabels: Invalid value: "b c": a valid label must be/)],
    ],
  ])("%s", (_name, spec, want) => {
    expect(msgs(np(spec))).toEqual(want);
  });

  it("rejects a bad name as a DNS-1123 subdomain", () => {
    expect(msgs(np({ podSelector: {} }, "Bad_Name"))[0]).toMatch(
      /^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
  });
});

describe("validateNetworkPolicyUpdate (upstream TestValidateNetworkPolicyUpdate)", () => {
  it("allows an invalid CIDR the stored object already had, and rejects a new one", () => {
    const old = np({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.1" } }] }] });
    const same = np({ podSelector: { matchLabels: { x: "y" } }, ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.1" } }] }] });
    const opts = validationOptionsForNetworking(old);
    expect(validateNetworkPolicyUpdate(same, old, opts)).toEqual([]);
    const changed = np({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: "192.168.0.2" } }] }] });
    expect(validateNetworkPolicyUpdate(changed, old, opts).map(fieldErrorString)).toEqual([
      'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "192.168.0.2": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
  });

  it("keeps an invalid podSelector label value the stored object already had", () => {
    const old = np({ podSelector: { matchLabels: { a: "b c" } } });
    const upd = np({ podSelector: { matchExpressions: [{ key: "a", operator: "In", values: ["b c"] }] } });
    expect(validateNetworkPolicyUpdate(upd, old, validationOptionsForNetworking(old))).toEqual([]);
    expect(validateNetworkPolicyUpdate(upd, np({ podSelector: {} }), validationOptionsForNetworking(np({ podSelector: {} })))).not.toEqual(
      [],
    );
  });

  it("rejects a name change", () => {
    const old = np({ podSelector: {} });
    const upd = np({ podSelector: {} }, "baz");
    expect(validateNetworkPolicyUpdate(upd, old, {}).map(fieldErrorString)).toContain(
      'metadata.name: Invalid value: "baz": field is immutable',
    );
  });
});

describe("SetDefaults_NetworkPolicy (pkg/apis/networking/v1/defaults_test.go TestSetDefaultNetworkPolicy)", () => {
  it.each<[string, unknown, string[]]>([
    ["no rules", { podSelector: {} }, ["Ingress"]],
    ["ingress only", { podSelector: {}, ingress: [{}] }, ["Ingress"]],
    ["egress", { podSelector: {}, egress: [{}] }, ["Ingress", "Egress"]],
    ["explicit Egress kept", { podSelector: {}, ingress: [{}], policyTypes: ["Egress"] }, ["Egress"]],
  ])("%s", (_name, spec, want) => {
    const p = np(spec);
    setDefaultsNetworkPolicy(p);
    expect(p.spec.policyTypes).toEqual(want);
  });

  it("defaults every port's protocol to TCP", () => {
    const p = np({ podSelector: {}, ingress: [{ ports: [{ port: 80 }, { protocol: "UDP" }] }], egress: [{ ports: [{}] }] });
    setDefaultsNetworkPolicy(p);
    expect(p.spec.ingress?.[0]?.ports?.map((x) => x.protocol)).toEqual(["TCP", "UDP"]);
    expect(p.spec.egress?.[0]?.ports?.[0]?.protocol).toBe("TCP");
  });
});
