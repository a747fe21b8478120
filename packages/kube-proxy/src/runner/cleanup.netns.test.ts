/**
 * `--cleanup` for real, inside a network namespace this test creates: rules of both modes
 * and families applied, then removed. Skipped with a warning when not root or tools are missing.
 */
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newProxyMetrics } from "../metrics/metrics.ts";
import { newDualStackIptablesProxier, newDualStackNftablesProxier } from "../metaproxier/dual-stack.ts";
import { populate } from "../proxy/populate.ts";
import { serviceShapes } from "../testing/service-shapes.ts";
import { IptablesApplier, NftablesApplier } from "./appliers.ts";
import { platformCleanup } from "./cleanup.ts";
import { applyUnavailableReason } from "./exec.ts";
import { FamilyRunner } from "./family-runner.ts";

const netns = `sn-kp-clean-${randomBytes(4).toString("hex")}`;
let skipReason = applyUnavailableReason(["ip", "iptables-restore", "ip6tables-restore", "iptables-save", "nft"]);
if (skipReason === undefined) {
  const r = spawnSync("ip", ["netns", "add", netns], { encoding: "utf8" });
  if (r.status !== 0) skipReason = `ip netns add failed: ${r.stderr.trim()}`;
}
if (skipReason !== undefined) console.warn(`skipping cleanup tests: ${skipReason}`);

const inNs = (...argv: string[]) => spawnSync("ip", ["netns", "exec", netns, ...argv], { encoding: "utf8" }).stdout;
const kubeLines = (save: string) => save.split("\n").filter((l) => /KUBE-(?!FIREWALL|KUBELET)/.test(l));

describe.skipIf(skipReason !== undefined)(`platformCleanup in netns ${netns}`, { timeout: 300_000 }, () => {
  beforeAll(async () => {
    inNs("ip", "link", "set", "lo", "up");
    const metrics = newProxyMetrics();
    const opts = { nodeName: "node", clusterCIDR: "10.0.0.0/8", nodeIPs: ["192.0.2.1"] };
    const opts6 = { nodeName: "node", clusterCIDR: "fd00:10::/48", nodeIPs: ["2001:db8::1"] };
    const ipt = newDualStackIptablesProxier({ ipv4: opts, ipv6: opts6 });
    const nft = newDualStackNftablesProxier({ ipv4: opts, ipv6: opts6 });
    // One Service with every kind of chain: KUBE-SVC/SVL/EXT/FW/SEP, firewall and NodePort rules.
    const shape = serviceShapes.find((s) => s.name === "loadbalancer source ranges");
    if (shape === undefined) throw new Error("shape missing");
    for (const d of [ipt.meta, nft.meta]) populate(d, shape.services, shape.slices);
    const runners = [
      new FamilyRunner({ kind: "iptables", proxier: ipt.ipv4, applier: new IptablesApplier({ netns }) }, metrics, { minSyncPeriodMs: 0 }),
      new FamilyRunner(
        { kind: "iptables", proxier: ipt.ipv6, applier: new IptablesApplier({ netns, localhostNodePorts: false }) },
        metrics,
        {
          minSyncPeriodMs: 0,
        },
      ),
      new FamilyRunner({ kind: "nftables", proxier: nft.ipv4, applier: new NftablesApplier({ netns }) }, metrics, { minSyncPeriodMs: 0 }),
      new FamilyRunner({ kind: "nftables", proxier: nft.ipv6, applier: new NftablesApplier({ netns }) }, metrics, { minSyncPeriodMs: 0 }),
    ];
    for (const r of runners) await r.syncNow();
  });
  afterAll(() => {
    spawnSync("ip", ["netns", "del", netns]);
  });

  it("without --cleanup, iptables mode removes only the nftables tables", async () => {
    expect(inNs("nft", "list", "tables")).toContain("table ip kube-proxy");
    expect(await platformCleanup("iptables", false, netns)).toEqual([]);
    expect(inNs("nft", "list", "tables")).not.toContain("kube-proxy");
    expect(kubeLines(inNs("iptables-save", "-t", "nat")).length).toBeGreaterThan(10);
  });

  it("--cleanup removes every jump rule and chain of both families; a second run finds nothing to do", async () => {
    expect(await platformCleanup("iptables", true, netns)).toEqual([]);
    for (const save of ["iptables-save", "ip6tables-save"]) expect([save, kubeLines(inNs(save))]).toEqual([save, []]);
    expect(await platformCleanup("nftables", true, netns)).toEqual([]);
  });
});
