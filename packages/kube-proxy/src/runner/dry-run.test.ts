import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newProxyMetrics } from "../metrics/metrics.ts";
import { newDualStackIptablesProxier, newDualStackNftablesProxier } from "../metaproxier/dual-stack.ts";
import { populate } from "../proxy/populate.ts";
import { overallServices, overallSlices, testNodeName } from "../testing/upstream-services.ts";
import { DryRunApplier } from "./appliers.ts";
import type { Applier } from "./appliers.ts";
import { FamilyRunner } from "./family-runner.ts";
import type { IptablesSyncResult } from "../iptables/proxier.ts";
import type { NftablesSyncResult } from "../nftables/proxier.ts";

let dir = "";
afterEach(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

describe("dry-run and sync metrics", () => {
  it("writes one rules file per family and records latency and rule counts", async () => {
    dir = await mkdtemp(join(tmpdir(), "sn-kp-dry-"));
    const metrics = newProxyMetrics();
    const d = newDualStackIptablesProxier({
      ipv4: { nodeName: testNodeName, clusterCIDR: "10.0.0.0/8" },
      ipv6: { nodeName: testNodeName },
    });
    const applier = new DryRunApplier(dir, "iptables");
    const runners = [d.ipv4, d.ipv6].map((p) => new FamilyRunner({ kind: "iptables", proxier: p, applier }, metrics));
    populate(d.meta, overallServices(false), overallSlices());
    for (const r of runners) await r.syncNow();
    const v4 = await readFile(applier.fileFor("IPv4"), "utf8");
    const v6 = await readFile(applier.fileFor("IPv6"), "utf8");
    expect(v4).toContain("-A KUBE-SVC-XPGD46QRK7WJZT7O");
    expect(v6).not.toContain("KUBE-SVC-");
    // The first sync is full: its input and the saved state hold the same rules.
    const lastSync = await readFile(join(dir, "iptables-ipv4.last-sync.rules"), "utf8");
    expect(lastSync).toContain("-A KUBE-SVC-XPGD46QRK7WJZT7O");
    expect(v4).toMatch(/^\*filter\n:INPUT ACCEPT \[0:0\]\n/);
    const text = metrics.registry.render();
    expect(text).toContain('kubeproxy_sync_proxy_rules_duration_seconds_count{ip_family="IPv4"} 1');
    expect(text).toContain('kubeproxy_sync_full_proxy_rules_duration_seconds_bucket{ip_family="IPv6",le="16.384"} 1');
    expect(text).toContain('kubeproxy_sync_proxy_rules_service_changes_total{ip_family="IPv4"} 6');
    expect(metrics.iptablesRulesTotal.get({ ip_family: "IPv4", table: "nat" })).toBe(
      lastSync
        .split("*nat")[1]
        ?.split("\n")
        .filter((l) => l.startsWith("-A")).length,
    );
    expect(metrics.noLocalEndpointsTotal.get({ ip_family: "IPv4", traffic_policy: "external" })).toBe(1);
  });

  // The one file a user reads is the ruleset as iptables-save would show it, however many partial
  // syncs came after the last full one: the same as a fresh full sync of the final objects.
  it("after partial syncs, iptables-ipv4.rules holds the current ruleset, as a full sync of the same objects", async () => {
    dir = await mkdtemp(join(tmpdir(), "sn-kp-dry-"));
    const run = async (sub: string, change: (d: ReturnType<typeof newDualStackIptablesProxier>) => void) => {
      const d = newDualStackIptablesProxier({ ipv4: { nodeName: testNodeName }, ipv6: { nodeName: testNodeName } });
      const applier = new DryRunApplier(join(dir, sub), "iptables");
      const full: boolean[] = [];
      const spy: Applier<IptablesSyncResult> = { apply: async (r) => (full.push(r.full), applier.apply(r)) };
      const runner = new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier: spy }, newProxyMetrics());
      populate(d.meta, overallServices(false), overallSlices());
      await runner.syncNow();
      change(d);
      await runner.syncNow();
      return {
        full,
        rules: await readFile(applier.fileFor("IPv4"), "utf8"),
        last: await readFile(join(dir, sub, "iptables-ipv4.last-sync.rules"), "utf8"),
      };
    };
    const [gone, ...kept] = overallServices(false);
    // Partial: one Service deleted after the full sync.
    const partial = await run("partial", (d) => d.meta.onServiceDelete(gone!));
    expect(partial.full).toEqual([true, false]);
    // Fresh: the same final objects in one full sync.
    const freshDir = join(dir, "fresh");
    const d = newDualStackIptablesProxier({ ipv4: { nodeName: testNodeName }, ipv6: { nodeName: testNodeName } });
    const applier = new DryRunApplier(freshDir, "iptables");
    populate(d.meta, kept, overallSlices());
    await new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier }, newProxyMetrics()).syncNow();
    const fresh = await readFile(applier.fileFor("IPv4"), "utf8");
    expect(partial.last).not.toBe(fresh); // the partial input alone is not the ruleset ...
    expect(partial.rules).toBe(fresh); // ... the saved state is
  });

  it("after partial syncs, nftables-ipv4.nft holds the current table, as a full sync of the same objects", async () => {
    dir = await mkdtemp(join(tmpdir(), "sn-kp-dry-"));
    let now = 10_000;
    const newNft = () =>
      newDualStackNftablesProxier({
        ipv4: { nodeName: testNodeName, clusterCIDR: "10.0.0.0/8", clock: () => now },
        ipv6: { nodeName: testNodeName },
      });
    const [gone, ...kept] = overallServices(false);
    const d = newNft();
    const applier = new DryRunApplier(join(dir, "partial"), "nftables");
    const full: boolean[] = [];
    const spy: Applier<NftablesSyncResult> = { apply: async (r) => (full.push(r.full), applier.apply(r)) };
    const runner = new FamilyRunner({ kind: "nftables", proxier: d.ipv4, applier: spy }, newProxyMetrics());
    populate(d.meta, overallServices(false), overallSlices());
    await runner.syncNow();
    d.meta.onServiceDelete(gone!);
    await runner.syncNow();
    // Its chains are flushed at once and deleted after the stale-chain delay, by a later sync.
    now += 5_000;
    await runner.syncNow();
    expect(full).toEqual([true, false, false]);
    const current = await readFile(applier.fileFor("IPv4"), "utf8");
    const last = await readFile(join(dir, "partial", "nftables-ipv4.last-sync.nft"), "utf8");

    const f = newNft();
    const freshApplier = new DryRunApplier(join(dir, "fresh"), "nftables");
    populate(f.meta, kept, overallSlices());
    await new FamilyRunner({ kind: "nftables", proxier: f.ipv4, applier: freshApplier }, newProxyMetrics()).syncNow();
    const fresh = await readFile(freshApplier.fileFor("IPv4"), "utf8");
    expect(last).not.toBe(fresh); // the partial transaction alone is not the table ...
    expect(current).toBe(fresh); // ... the applied state is
    expect(current).toMatch(/^add table ip kube-proxy \{ comment "rules for kube-proxy" ; \}\nadd chain /);
  });

  it("a failed apply counts a restore failure and makes the next sync full", async () => {
    const metrics = newProxyMetrics();
    const d = newDualStackIptablesProxier({ ipv4: { nodeName: testNodeName }, ipv6: { nodeName: testNodeName } });
    let fail = true;
    const seen: boolean[] = [];
    const applier: Applier<IptablesSyncResult> = {
      apply: async (r) => {
        seen.push(r.full);
        if (fail) throw new Error("iptables-restore: line 3 failed");
      },
    };
    const runner = new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier }, metrics);
    populate(d.meta, overallServices(false), overallSlices());
    await runner.syncNow();
    fail = false;
    await runner.syncNow();
    await runner.syncNow();
    expect(seen).toEqual([true, true, false]);
    expect(metrics.iptablesRestoreFailuresTotal.get({ ip_family: "IPv4" })).toBe(1);
    expect(metrics.iptablesPartialRestoreFailuresTotal.get({ ip_family: "IPv4" })).toBe(0);
  });
});
