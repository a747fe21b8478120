import { describe, expect, it } from "vitest";
import { clientConnectionFlag, float32Flag, int32Flag, scanFlags, UsageError, type ClientConnectionFlags } from "./flags.ts";

function scan(argv: string[]): Array<[string, string | boolean]> {
  const seen: Array<[string, string | boolean]> = [];
  scanFlags(argv, (f) => seen.push([f.name, f.name.startsWith("--bool") ? f.inline && f.value() : f.value()]));
  return seen;
}

describe("scanFlags", () => {
  it.each([
    { argv: ["--kubeconfig", "a"], want: [["--kubeconfig", "a"]] },
    {
      argv: ["--kubeconfig=a", "-v", "2"],
      want: [
        ["--kubeconfig", "a"],
        ["-v", "2"],
      ],
    },
    { argv: ["--x=a=b"], want: [["--x", "a=b"]] },
    {
      argv: ["--bool", "--y", "1"],
      want: [
        ["--bool", false],
        ["--y", "1"],
      ],
    },
    { argv: ["--bool=false"], want: [["--bool", "false"]] },
  ])("$argv", ({ argv, want }) => {
    expect(scan(argv)).toEqual(want);
  });

  it.each([[["--kubeconfig"]], [["--kubeconfig="]]])("a missing value is a usage error: %j", (argv) => {
    expect(() => scan(argv)).toThrow(new UsageError("flag --kubeconfig needs a value"));
  });
});

describe("int32Flag and float32Flag (pflag's Int32Var and Float32Var)", () => {
  it.each([
    { parse: int32Flag, v: "30", want: 30 },
    { parse: int32Flag, v: "-1", want: -1 },
    { parse: float32Flag, v: "20", want: 20 },
    { parse: float32Flag, v: "0.5", want: 0.5 },
    { parse: float32Flag, v: "-1", want: -1 },
    { parse: float32Flag, v: "1e2", want: 100 },
  ])("$parse.name $v", ({ parse, v, want }) => {
    expect(parse("--kube-api-qps", v)).toBe(want);
  });

  it.each([
    { parse: int32Flag, v: "x", want: 'invalid argument "x" for "--f" flag: strconv.ParseInt: parsing "x": invalid syntax' },
    { parse: int32Flag, v: "1.5", want: 'invalid argument "1.5" for "--f" flag: strconv.ParseInt: parsing "1.5": invalid syntax' },
    {
      parse: int32Flag,
      v: "2147483648",
      want: 'invalid argument "2147483648" for "--f" flag: strconv.ParseInt: parsing "2147483648": value out of range',
    },
    { parse: float32Flag, v: "x", want: 'invalid argument "x" for "--f" flag: strconv.ParseFloat: parsing "x": invalid syntax' },
    {
      parse: float32Flag,
      v: "1e39",
      want: 'invalid argument "1e39" for "--f" flag: strconv.ParseFloat: parsing "1e39": value out of range',
    },
  ])("$parse.name refuses $v", ({ parse, v, want }) => {
    expect(() => parse("--f", v)).toThrow(new UsageError(want));
  });
});

describe("clientConnectionFlag", () => {
  const parse = (argv: string[]): { o: ClientConnectionFlags; rest: string[] } => {
    const o: ClientConnectionFlags = { kubeAPIQPS: 20, kubeAPIBurst: 30 };
    const rest: string[] = [];
    scanFlags(argv, (f) => {
      if (!clientConnectionFlag(o, f)) rest.push(f.name);
    });
    return { o, rest };
  };

  it.each([
    { argv: [], want: { kubeAPIQPS: 20, kubeAPIBurst: 30 }, rest: [] },
    { argv: ["--kube-api-qps", "0.5", "--kube-api-burst=7"], want: { kubeAPIQPS: 0.5, kubeAPIBurst: 7 }, rest: [] },
    { argv: ["--kube-api-qps=-1", "--other", "x"], want: { kubeAPIQPS: -1, kubeAPIBurst: 30 }, rest: ["--other", "x"] },
  ])("$argv", ({ argv, want, rest }) => {
    expect(parse(argv)).toEqual({ o: want, rest });
  });

  it.each([
    {
      argv: ["--kube-api-burst", "1.5"],
      want: 'invalid argument "1.5" for "--kube-api-burst" flag: strconv.ParseInt: parsing "1.5": invalid syntax',
    },
    { argv: ["--kube-api-qps=x"], want: 'invalid argument "x" for "--kube-api-qps" flag: strconv.ParseFloat: parsing "x": invalid syntax' },
  ])("refuses $argv", ({ argv, want }) => {
    expect(() => parse(argv)).toThrow(new UsageError(want));
  });
});
