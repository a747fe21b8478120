import { describe, expect, it } from "vitest";
import { getLocalDetectors, resolveNodePortAddresses } from "./local-detectors.ts";
import { parseOptions } from "./options.ts";

const parse = (...argv: string[]) => parseOptions(["--kubeconfig", "k", ...argv]);

// pkg/proxy/apis/config/validation/validation_test.go: TestValidateKubeProxyNodePortAddress,
// TestValidateDetectLocalMode, TestValidateDetectLocalConfiguration, as kube-proxy prints them.
describe("--nodeport-addresses, --detect-local-mode validation", () => {
  it.each([
    [["--nodeport-addresses", "foo"], 'KubeProxyConfiguration.NodePortAddresses[0]: Invalid value: "foo": must be a valid CIDR'],
    [
      ["--nodeport-addresses", "10.0.0.0/0,1.2.3"],
      'KubeProxyConfiguration.NodePortAddresses[1]: Invalid value: "1.2.3": must be a valid CIDR',
    ],
    [
      ["--nodeport-addresses", "127.0.0.1/32,0,1.2.3.0/24"],
      'KubeProxyConfiguration.NodePortAddresses[1]: Invalid value: "0": must be a valid CIDR',
    ],
    [
      ["--nodeport-addresses", "primary,10.0.0.0/8"],
      "KubeProxyConfiguration.NodePortAddresses[0]: Invalid value: \"primary\": can't use both 'primary' and CIDRs",
    ],
    [
      ["--nodeport-addresses", "10.0.0.0/8,primary"],
      "KubeProxyConfiguration.NodePortAddresses[1]: Invalid value: \"primary\": can't use both 'primary' and CIDRs",
    ],
    [
      ["--detect-local-mode", "Guess"],
      'KubeProxyConfiguration.DetectLocalMode: Unsupported value: "Guess": supported values: "ClusterCIDR", "NodeCIDR", "BridgeInterface", "InterfaceNamePrefix", ""',
    ],
    [
      ["--detect-local-mode", "BridgeInterface"],
      'KubeProxyConfiguration.DetectLocalConfiguration.InterfaceName: Invalid value: "": must not be empty',
    ],
    [
      ["--detect-local-mode", "InterfaceNamePrefix"],
      'KubeProxyConfiguration.DetectLocalConfiguration.InterfacePrefix: Invalid value: "": must not be empty',
    ],
    [
      ["--cluster-cidr", "10.0.0.0/8,fd00::/64,10.1.0.0/16"],
      'KubeProxyConfiguration.DetectLocalConfiguration.ClusterCIDRs: Invalid value: []string{"10.0.0.0/8", "fd00::/64", "10.1.0.0/16"}: must be a either a single CIDR or dual-stack pair of CIDRs (e.g. [10.100.0.0/16, fde4:8dba:82e1::/48]',
    ],
    [
      ["--cluster-cidr", "10.0.0.0"],
      'KubeProxyConfiguration.DetectLocalConfiguration.ClusterCIDRs[0]: Invalid value: "10.0.0.0": must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)',
    ],
  ])("%j: %s", (argv, msg) => {
    expect(() => parse(...argv)).toThrow(`failed validate: ${msg}`);
  });

  it("accepts CIDRs of both families, primary alone, and an ignored bridge name in ClusterCIDR mode", () => {
    expect(parse("--nodeport-addresses", "127.0.0.1/32,1.2.3.0/24,2001:db8::/32").nodePortAddresses).toEqual([
      "127.0.0.1/32",
      "1.2.3.0/24",
      "2001:db8::/32",
    ]);
    expect(parse("--nodeport-addresses", "primary").nodePortAddresses).toEqual(["primary"]);
    expect(parse("--pod-bridge-interface", "cbr0")).toMatchObject({ detectLocalMode: "ClusterCIDR", podBridgeInterface: "cbr0" });
  });

  it("defaults: ClusterCIDR; nftables mode NodePorts on the primary node IPs (platformApplyDefaults)", () => {
    expect(parse()).toMatchObject({ detectLocalMode: "ClusterCIDR", nodePortAddresses: [], masqueradeAll: false });
    expect(parse("--proxy-mode", "nftables").nodePortAddresses).toEqual(["primary"]);
    expect(parse("--masquerade-all").masqueradeAll).toBe(true);
  });
});

describe("getLocalDetectors and resolveNodePortAddresses (cmd/kube-proxy/app)", () => {
  const base = { clusterCIDRs: { IPv4: "10.0.0.0/8" }, podBridgeInterface: "cbr0", podInterfaceNamePrefix: "veth" };
  it.each([
    ["ClusterCIDR", "-s 10.0.0.0/8", ""],
    ["BridgeInterface", "-i cbr0", "-i cbr0"],
    ["InterfaceNamePrefix", "-i veth+", "-i veth+"],
  ] as const)("%s: IPv4 %j, IPv6 %j", (mode, v4, v6) => {
    const d = getLocalDetectors({ ...base, detectLocalMode: mode });
    expect([d.IPv4.ifLocal, d.IPv6.ifLocal]).toEqual([v4, v6]);
  });

  it("primary is the first node IP of each family, loopback left out; CIDRs pass through", () => {
    const nodeIPs = { IPv4: ["192.168.0.2", "192.168.1.2"], IPv6: ["2001:db8::1"] };
    expect(resolveNodePortAddresses({ nodePortAddresses: ["primary"], nodeIPs })).toEqual(["192.168.0.2/32", "2001:db8::1/128"]);
    expect(resolveNodePortAddresses({ nodePortAddresses: ["primary"], nodeIPs: { IPv4: ["127.0.0.1"], IPv6: [] } })).toEqual([]);
    expect(resolveNodePortAddresses({ nodePortAddresses: ["10.0.0.0/8"], nodeIPs })).toEqual(["10.0.0.0/8"]);
  });
});
