import { describe, expect, it } from "vitest";
import { scanFlags, UsageError } from "./flags.ts";

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
