import { describe, expect, it } from "vitest";
import { parseOptions } from "./options.ts";

describe("parseOptions", () => {
  it.each([
    [["--kubeconfig", "k"], { kubeconfig: "k", leaderElect: false, controllers: ["endpoint", "endpointslice", "servicecidr"], workers: 5 }],
    [["--kubeconfig=k", "--leader-elect", "--controllers", "endpointslice,servicecidr"], { leaderElect: true, controllers: ["endpointslice", "servicecidr"] }],
    [["--kubeconfig", "k", "--leader-elect=false", "--controllers=*", "--concurrent-syncs", "2"], { leaderElect: false, controllers: ["endpoint", "endpointslice", "servicecidr"], workers: 2 }],
  ])("%j", (argv, want) => {
    expect(parseOptions(argv)).toMatchObject(want);
  });

  it.each([
    [[], "--kubeconfig is required"],
    [["--kubeconfig"], "flag --kubeconfig needs a value"],
    [["--kubeconfig", "k", "--controllers", "endpoint,nope"], 'unknown controller "nope"'],
    [["--kubeconfig", "k", "--bogus"], "unknown flag: --bogus"],
    [["--kubeconfig", "k", "--concurrent-syncs", "0"], "--concurrent-syncs must be a positive integer"],
  ])("%j is a usage error", (argv, msg) => {
    expect(() => parseOptions(argv)).toThrow(msg);
  });
});
