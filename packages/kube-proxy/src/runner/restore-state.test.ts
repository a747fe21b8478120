import { describe, expect, it } from "vitest";
import { IptablesState } from "./restore-state.ts";

/** The state after `inputs`, saved. */
function after(...inputs: string[]): string {
  const s = new IptablesState();
  for (const i of inputs) s.apply(i);
  return s.save();
}

const natHead = ":PREROUTING ACCEPT [0:0]\n:INPUT ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n:POSTROUTING ACCEPT [0:0]\n";

// iptables-restore --noflush (iptables/iptables-restore.c) as kube-proxy's partial syncs rely on it.
describe("IptablesState", () => {
  it.each([
    ["nothing applied", [], ""],
    [
      "a chain line creates a chain; built-ins first, user chains sorted",
      ["*nat\n:KUBE-SVC-B - [0:0]\n:KUBE-SVC-A - [0:0]\n-A KUBE-SVC-B -j KUBE-SVC-A\nCOMMIT\n"],
      `*nat\n${natHead}:KUBE-SVC-A - [0:0]\n:KUBE-SVC-B - [0:0]\n-A KUBE-SVC-B -j KUBE-SVC-A\nCOMMIT\n`,
    ],
    [
      "a chain line flushes an existing chain; chains it does not name keep their rules",
      ["*nat\n:A - [0:0]\n:B - [0:0]\n-A A -j ACCEPT\n-A B -j ACCEPT\nCOMMIT\n", "*nat\n:A - [0:0]\n-A A -j DROP\nCOMMIT\n"],
      `*nat\n${natHead}:A - [0:0]\n:B - [0:0]\n-A A -j DROP\n-A B -j ACCEPT\nCOMMIT\n`,
    ],
    [
      "-X deletes a chain (after its chain line flushed it)",
      ["*nat\n:A - [0:0]\n:B - [0:0]\n-A B -j ACCEPT\nCOMMIT\n", "*nat\n:B - [0:0]\n-X B\nCOMMIT\n"],
      `*nat\n${natHead}:A - [0:0]\nCOMMIT\n`,
    ],
    [
      "-I inserts first or at a position, -F flushes, a built-in's chain line sets its policy",
      ["*filter\n:FORWARD DROP [0:0]\n:A - [0:0]\n-A A -j RETURN\n-I A -j DROP\n-I A 2 -j LOG\n-A INPUT -j A\n-F INPUT\nCOMMIT\n"],
      "*filter\n:INPUT ACCEPT [0:0]\n:FORWARD DROP [0:0]\n:OUTPUT ACCEPT [0:0]\n:A - [0:0]\n-A A -j DROP\n-A A -j LOG\n-A A -j RETURN\nCOMMIT\n",
    ],
  ])("%s", (_name, inputs, want) => {
    expect(after(...inputs)).toBe(want);
  });

  it.each([
    ["a rule for a chain that does not exist", "*nat\n-A NOPE -j ACCEPT\nCOMMIT\n", /no chain\/target\/match by that name/],
    ["deleting a built-in chain", "*nat\n-X OUTPUT\nCOMMIT\n", /cannot delete built-in chain/],
    ["a table without COMMIT", "*nat\n:A - [0:0]\n", /table nat has no COMMIT/],
  ])("refuses %s and changes nothing", (_name, input, err) => {
    const s = new IptablesState();
    s.apply("*filter\n:A - [0:0]\nCOMMIT\n");
    const before = s.save();
    expect(() => s.apply(`*filter\n-A A -j DROP\nCOMMIT\n${input}`)).toThrow(err);
    expect(s.save()).toBe(before);
  });
});
