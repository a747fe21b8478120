import { describe, expect, it } from "vitest";
import { parseNodeIPFlag, parseOptions } from "./options.ts";

describe("parseNodeIPFlag (component-helpers node/util/ips.go parseNodeIP)", () => {
  const cases = [
    { value: "10.0.0.2", want: ["10.0.0.2"] },
    { value: "fd00::2,10.0.0.2", want: ["fd00::2", "10.0.0.2"] },
    { value: "10.0.0.2,10.0.0.3", err: 'bad --node-ip "10.0.0.2,10.0.0.3": must contain either a single IP or a dual-stack pair of IPs' },
    {
      value: "10.0.0.2,fd00::2,fd00::3",
      err: 'bad --node-ip "10.0.0.2,fd00::2,fd00::3": must contain either a single IP or a dual-stack pair of IPs',
    },
    { value: "0.0.0.0,fd00::2", err: "bad --node-ip \"0.0.0.0,fd00::2\": dual-stack node IP cannot include '0.0.0.0' or '::'" },
    { value: "10.0.0.300", err: 'bad --node-ip "10.0.0.300": could not parse "10.0.0.300"' },
  ];
  it.each(cases)("$value", ({ value, want, err }) => {
    if (err !== undefined) expect(() => parseNodeIPFlag(value)).toThrow(err);
    else expect(parseNodeIPFlag(value)).toEqual(want);
  });
});

describe("parseOptions", () => {
  it("takes kubelet's flag names and the simulation's", () => {
    const o = parseOptions(["--kubeconfig=k", "--nodes", "5", "--zones", "a,b", "--node-ip", "fd00::2,10.0.0.2"]);
    expect(o).toMatchObject({ kubeconfig: "k", nodes: 5, node: { zones: ["a", "b"], nodeIPs: ["fd00::2", "10.0.0.2"] } });
  });
  it.each([
    { argv: [], want: { kubeAPIQPS: 50, kubeAPIBurst: 100, address: "0.0.0.0", readOnlyPort: 0 } },
    { argv: ["--address", "127.0.0.1", "--read-only-port", "10255"], want: { address: "127.0.0.1", readOnlyPort: 10255 } },
    { argv: ["--kube-api-qps", "5.5", "--kube-api-burst=10"], want: { kubeAPIQPS: 5.5, kubeAPIBurst: 10 } },
    { argv: ["--kube-api-qps", "0", "--kube-api-burst", "0"], want: { kubeAPIQPS: 0, kubeAPIBurst: 0 } },
  ])("client rate $argv", ({ argv, want }) => {
    expect(parseOptions(["--kubeconfig", "k", ...argv])).toMatchObject(want);
  });
  it.each([
    [["--nodes", "1"], "--kubeconfig is required"],
    [
      ["--kubeconfig", "k", "--read-only-port", "65536"],
      "invalid configuration: readOnlyPort (--read-only-port) 65536 must be between 0 and 65535, inclusive",
    ],
    [
      ["--kubeconfig", "k", "--address", "localhost"],
      'invalid argument "localhost" for "--address" flag: "localhost" is not a valid IP address',
    ],
    [["--kubeconfig", "k", "--kube-api-qps", "-1"], "invalid configuration: kubeAPIQPS (--kube-api-qps) -1 must not be a negative number"],
    [
      ["--kubeconfig", "k", "--kube-api-qps", "-0.5"],
      "invalid configuration: kubeAPIQPS (--kube-api-qps) -0.5 must not be a negative number",
    ],
    [
      ["--kubeconfig", "k", "--kube-api-burst", "-1"],
      "invalid configuration: kubeAPIBurst (--kube-api-burst) -1 must not be a negative number",
    ],
    [
      ["--kubeconfig", "k", "--kube-api-burst", "x"],
      'invalid argument "x" for "--kube-api-burst" flag: strconv.ParseInt: parsing "x": invalid syntax',
    ],
    [["--kubeconfig", "k", "--nodes", "0"], '--nodes must be a positive integer, got "0"'],
    [["--kubeconfig", "k", "--nodes", "2", "--hostname-override", "x"], "--hostname-override names one Node: use it with --nodes 1"],
    [["--kubeconfig", "k", "--bogus"], "unknown flag: --bogus"],
  ])("%j fails with %s", (argv, msg) => {
    expect(() => parseOptions(argv)).toThrow(msg);
  });
});
