/** IptablesApplier's jump rules with a fake exec: the order of tool runs, not the kernel. */
import { describe, expect, it } from "vitest";
import { jumpChains, kubeletJumpChains } from "../iptables/jump-chains.ts";
import type { IptablesSyncResult } from "../iptables/proxier.ts";
import { IptablesApplier } from "./appliers.ts";
import type { ExecResult } from "./exec.ts";

function fakeTools(existing: (argv: readonly string[]) => boolean) {
  const calls: string[] = [];
  const exec = async (argv: readonly string[]): Promise<ExecResult> => {
    calls.push(argv.join(" "));
    const op = argv[5];
    const code = op === "-C" ? (existing(argv) ? 0 : 1) : 0;
    return { code, stdout: "", stderr: "" };
  };
  return { calls, exec };
}
const result = (full: boolean) => ({ family: "IPv4", full, data: "*filter\nCOMMIT\n" }) as unknown as IptablesSyncResult;
const ops = (calls: string[]) => calls.map((c) => c.split(" ")[5] ?? c.split(" ")[0]);

describe("IptablesApplier jump rules", () => {
  const n = jumpChains.length + kubeletJumpChains.length;
  const cases = [
    {
      name: "fresh node: check, create chain, insert, for every jump",
      existing: () => false,
      want: [...Array.from({ length: n }, () => ["-C", "-N", "-I"]).flat(), "iptables-restore"],
    },
    {
      name: "jumps in place: one check each, no -N",
      existing: () => true,
      want: [...Array.from({ length: n }, () => "-C"), "iptables-restore"],
    },
  ];
  it.each(cases)("$name", async ({ existing, want }) => {
    const t = fakeTools(existing);
    await new IptablesApplier({ exec: t.exec }).apply(result(true));
    expect(ops(t.calls)).toEqual(want);
  });

  it("only a missing jump is created, with upstream's argv", async () => {
    const missing = jumpChains[3]!;
    const t = fakeTools((argv) => !(argv.includes(missing.srcChain) && argv.includes(missing.dstChain) && argv.includes(missing.table)));
    await new IptablesApplier({ exec: t.exec, localhostNodePorts: false }).apply(result(true));
    expect(t.calls.filter((c) => !c.includes(" -C "))).toEqual([
      `iptables -w 5 -t ${missing.table} -N ${missing.dstChain}`,
      `iptables -w 5 -t ${missing.table} -I ${missing.srcChain} -m conntrack --ctstate NEW -m comment --comment ${missing.comment} -j ${missing.dstChain}`,
      "iptables-restore -w 5 --noflush --counters",
    ]);
  });

  it("a partial sync runs only the restore", async () => {
    const t = fakeTools(() => true);
    await new IptablesApplier({ exec: t.exec }).apply(result(false));
    expect(t.calls).toEqual(["iptables-restore -w 5 --noflush --counters"]);
  });
});
