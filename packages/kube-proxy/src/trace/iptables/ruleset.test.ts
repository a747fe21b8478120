import { describe, expect, it } from "vitest";
import { traceIptables } from "./evaluate.ts";
import { parseRule } from "./rule.ts";
import { IptablesRuleset } from "./ruleset.ts";

const pkt = { source: "10.0.0.2", destination: "172.30.0.41", protocol: "tcp", port: 80, origin: "prerouting" } as const;
const node = { localIPs: ["192.168.0.2"] };

/** A nat table with one Service of `n` endpoints, as the proxier writes its probability cascade. */
function cascade(n: number): string {
  const probs = ["", "1.0000000000", "0.5000000000", "0.3333333333"];
  const lines = ["*nat", ":KUBE-SERVICES - [0:0]", ":KUBE-SVC-A - [0:0]", ":KUBE-POSTROUTING - [0:0]"];
  for (let i = 0; i < n; i++) lines.push(`:KUBE-SEP-${i} - [0:0]`);
  lines.push('-A KUBE-SERVICES -m comment --comment "ns/a:p cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-A');
  for (let i = 0; i < n; i++) {
    const stat = i < n - 1 ? ` -m statistic --mode random --probability ${probs[n - i]}` : "";
    lines.push(`-A KUBE-SVC-A -m comment --comment "ns/a:p -> 10.1.0.${i}:8080"${stat} -j KUBE-SEP-${i}`);
    lines.push(`-A KUBE-SEP-${i} -m comment --comment ns/a:p -m tcp -p tcp -j DNAT --to-destination 10.1.0.${i}:8080`);
  }
  lines.push("COMMIT", "");
  return lines.join("\n");
}

describe("IptablesRuleset", () => {
  it("enumerates the probability cascade: each of three endpoints gets 1/3, the paths sum to 1", () => {
    const r = traceIptables(new IptablesRuleset().restore(cascade(3)), pkt, node);
    expect(r.outcomes.map((o) => o.dnat)).toEqual(["10.1.0.0:8080", "10.1.0.1:8080", "10.1.0.2:8080"]);
    for (const o of r.outcomes) expect(o.probability).toBeCloseTo(1 / 3, 9);
    expect(r.outcomes.reduce((a, o) => a + o.probability, 0)).toBeCloseTo(1, 9);
  });

  it("applies restores with --noflush semantics: a declared chain is flushed, -X deletes, others stay", () => {
    const rs = new IptablesRuleset().restore(cascade(3));
    // A partial sync rewrites KUBE-SVC-A with one endpoint and deletes the stale SEPs.
    rs.restore(
      [
        "*nat",
        ":KUBE-SVC-A - [0:0]",
        ":KUBE-SEP-1 - [0:0]",
        ":KUBE-SEP-2 - [0:0]",
        '-A KUBE-SVC-A -m comment --comment "ns/a:p -> 10.1.0.0:8080" -j KUBE-SEP-0',
        "-X KUBE-SEP-1",
        "-X KUBE-SEP-2",
        "COMMIT",
        "",
      ].join("\n"),
    );
    expect(rs.chain("nat", "KUBE-SEP-1")).toBeUndefined();
    expect(rs.chain("nat", "KUBE-SERVICES")?.lines).toHaveLength(1);
    const r = traceIptables(rs, pkt, node);
    expect(r.outcomes.map((o) => [o.dnat, o.probability])).toEqual([["10.1.0.0:8080", 1]]);
  });

  it("indexes long chains by -d without changing rule order or negated and CIDR matches", () => {
    const lines = ["*nat", ":KUBE-SERVICES - [0:0]", ":KUBE-MARK-MASQ - [0:0]", ":KUBE-SVC-A - [0:0]", ":KUBE-SEP-A - [0:0]"];
    // A CIDR rule before the literal ones must still be seen first; 100 literal rules make the chain long.
    lines.push("-A KUBE-SERVICES -d 172.30.0.0/16 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ");
    lines.push("-A KUBE-SERVICES ! -d 172.30.1.57 -j KUBE-MARK-MASQ");
    for (let i = 0; i < 100; i++) lines.push(`-A KUBE-SERVICES -m tcp -p tcp -d 172.30.1.${i} --dport 80 -j KUBE-SVC-A`);
    lines.push("-A KUBE-SVC-A -j KUBE-SEP-A", "-A KUBE-SEP-A -m tcp -p tcp -j DNAT --to-destination 10.1.0.1:8080", "COMMIT", "");
    const rs = new IptablesRuleset().restore(lines.join("\n"));
    expect(rs.chain("nat", "KUBE-SERVICES")?.candidates("172.30.1.57")).toEqual([0, 1, 59]);
    const r = traceIptables(rs, { ...pkt, source: "192.0.2.1", destination: "172.30.1.57" }, node);
    expect(r.outcomes.map((o) => [o.dnat, o.masquerade, o.steps.filter((st) => st.hook === "prerouting").map((st) => st.action)])).toEqual([
      [
        "10.1.0.1:8080",
        false,
        ["jump KUBE-SERVICES", "jump KUBE-MARK-MASQ", "jump KUBE-SVC-A", "jump KUBE-SEP-A", "DNAT to 10.1.0.1:8080"],
      ],
    ]);
  });

  it("installs kube-proxy's jump rules from the built-in chains", () => {
    const rs = new IptablesRuleset();
    expect(rs.chain("nat", "PREROUTING")?.lines).toEqual(['-m comment --comment "kubernetes service portals" -j KUBE-SERVICES']);
    expect(rs.chain("filter", "OUTPUT")?.lines).toEqual([
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    ]);
  });

  it("refuses what it cannot evaluate instead of guessing", () => {
    expect(() => parseRule("-m foo --bar 1 -j ACCEPT")).toThrow('unsupported iptables option "--bar"');
    expect(() => new IptablesRuleset().restore("*mangle\nCOMMIT\n")).toThrow("table mangle is not traced");
    const rs = new IptablesRuleset().restore("*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -j KUBE-NOWHERE\nCOMMIT\n");
    expect(() => traceIptables(rs, pkt, node)).toThrow("jump to missing chain nat/KUBE-NOWHERE");
  });

  it("parses negations, marks and affinity checks", () => {
    const r = parseRule(
      '-m comment --comment "x y" -m mark ! --mark 0x4000/0x4000 ! -s 10.0.0.0/8 -m recent --name KUBE-SEP-X --rcheck --seconds 10800 --reap -j RETURN',
    );
    expect(r.comment).toBe("x y");
    expect(r.mark).toEqual({ negated: true, value: { value: 0x4000, mask: 0x4000 } });
    expect(r.source?.negated).toBe(true);
    expect(r.source?.value("10.1.2.3")).toBe(true);
    expect(r.recent).toEqual({ name: "KUBE-SEP-X", op: "rcheck", seconds: 10800 });
    expect(r.target).toBe("RETURN");
  });
});
