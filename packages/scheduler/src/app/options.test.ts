import { describe, expect, it } from "vitest";
import { parseOptions, UsageError } from "./options.ts";

describe("parseOptions", () => {
  it.each([
    { argv: ["--kubeconfig", "k"], want: { kubeconfig: "k", kubeAPIQPS: 50, kubeAPIBurst: 100 } },
    { argv: ["--kubeconfig", "k", "--kube-api-qps", "200", "--kube-api-burst=400"], want: { kubeAPIQPS: 200, kubeAPIBurst: 400 } },
    // A negative QPS is no limit (client-go's RESTClientFor); the scheduler checks the burst only.
    { argv: ["--kubeconfig", "k", "--kube-api-qps", "-1"], want: { kubeAPIQPS: -1 } },
    { argv: ["--kubeconfig", "k", "--kube-api-burst", "0"], want: { kubeAPIBurst: 0 } },
  ])("$argv", ({ argv, want }) => {
    expect(parseOptions(argv)).toMatchObject(want);
  });

  it.each([
    { argv: [], want: "--kubeconfig is required" },
    // upstream's ValidateClientConnectionConfiguration message, as kube-scheduler prints it.
    { argv: ["--kubeconfig", "k", "--kube-api-burst", "-1"], want: "clientConnection.burst: Invalid value: -1: must be non-negative" },
    {
      argv: ["--kubeconfig", "k", "--kube-api-qps", "x"],
      want: 'invalid argument "x" for "--kube-api-qps" flag: strconv.ParseFloat: parsing "x": invalid syntax',
    },
  ])("$argv is a usage error", ({ argv, want }) => {
    expect(() => parseOptions(argv)).toThrow(new UsageError(want));
  });
});
