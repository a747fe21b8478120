/**
 * Real apply inside a network namespace this test creates (never the host's
 * rules). Skipped with a warning when not root or the tools are missing.
 */
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newProxyMetrics } from "../metrics/metrics.ts";
import { newDualStackIptablesProxier, newDualStackNftablesProxier } from "../metaproxier/dual-stack.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { IptablesApplier, NftablesApplier } from "./appliers.ts";
import { applyUnavailableReason } from "./exec.ts";
import { FamilyRunner } from "./family-runner.ts";

const netns = `sn-kp-test-${randomBytes(4).toString("hex")}`;
let skipReason = applyUnavailableReason(["ip", "iptables-restore", "ip6tables-restore", "iptables-save", "nft"]);
if (skipReason === undefined) {
  const r = spawnSync("ip", ["netns", "add", netns], { encoding: "utf8" });
  if (r.status !== 0) skipReason = `ip netns add failed: ${r.stderr.trim()}`;
}
if (skipReason !== undefined) console.warn(`skipping real-apply tests: ${skipReason}`);

const inNs = (...argv: string[]) => {
  const r = spawnSync("ip", ["netns", "exec", netns, ...argv], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

const svc: Service = makeTestService("default", "kp-web", (s) => {
  s.spec.type = "NodePort";
  s.spec.clusterIP = "10.96.0.10";
  s.spec.clusterIPs = ["10.96.0.10", "fd00:10:96::10"];
  s.spec.ipFamilies = ["IPv4", "IPv6"];
  s.spec.ports = [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080, nodePort: 30080 }];
});
const slice = (family: IPFamily, ips: string[]): EndpointSlice =>
  makeTestEndpointSlice("default", "kp-web", family === "IPv4" ? 4 : 6, (e) => {
    e.addressType = family;
    e.endpoints = ips.map((ip) => ({ addresses: [ip] }));
    e.ports = [tcpPort("http", 8080)];
  });
const v4Before = slice("IPv4", ["10.244.0.5", "10.244.0.6"]);
const v6Before = slice("IPv6", ["fd00:10:244::5", "fd00:10:244::6"]);
const v4After = slice("IPv4", ["10.244.0.5", "10.244.0.7"]);
const opts = (cidr: string, nodeIP: string) => ({ nodeName: "node", clusterCIDR: cidr, nodeIPs: [nodeIP] });

describe.skipIf(skipReason !== undefined)(`real apply in netns ${netns}`, { timeout: 300_000 }, () => {
  beforeAll(() => {
    inNs("ip", "link", "set", "lo", "up");
  });
  afterAll(() => {
    spawnSync("ip", ["netns", "del", netns]);
  });

  it("iptables: jump rules, a full restore per family, then a partial restore that deletes the stale SEP chain", async () => {
    const metrics = newProxyMetrics();
    const d = newDualStackIptablesProxier({ ipv4: opts("10.244.0.0/16", "10.244.0.1"), ipv6: opts("fd00:10:244::/56", "fd00:10:244::1") });
    const r4 = new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier: new IptablesApplier({ netns }) }, metrics, {
      minSyncPeriodMs: 0,
    });
    const r6 = new FamilyRunner(
      { kind: "iptables", proxier: d.ipv6, applier: new IptablesApplier({ netns, localhostNodePorts: false }) },
      metrics,
      { minSyncPeriodMs: 0 },
    );
    populate(d.meta, [svc], [v4Before, v6Before]);
    await r4.syncNow();
    await r6.syncNow();
    const nat4 = inNs("iptables-save", "-t", "nat");
    expect(nat4).toContain('-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES');
    expect(nat4).toContain(
      '-A KUBE-SEP-QANGYENAPPVL3U3P -p tcp -m comment --comment "default/kp-web:http" -m tcp -j DNAT --to-destination 10.244.0.5:8080',
    );
    expect(nat4).toContain(
      '-A KUBE-NODEPORTS -p tcp -m comment --comment "default/kp-web:http" -m tcp --dport 30080 -j KUBE-EXT-5PNJSAMYWXRDMV6C',
    );
    const nat6 = inNs("ip6tables-save", "-t", "nat");
    expect(nat6).toContain(
      '-A KUBE-SERVICES -d fd00:10:96::10/128 -p tcp -m comment --comment "default/kp-web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-5PNJSAMYWXRDMV6C',
    );
    expect(nat6).toContain(":KUBE-SEP-YVALE6PFULBT37DA");

    d.meta.onEndpointSliceUpdate(v4Before, v4After);
    await r4.syncNow();
    const after = inNs("iptables-save", "-t", "nat");
    expect(after).not.toContain("KUBE-SEP-ML44CQ5VA4U6ZY4S");
    expect(after).toContain("--to-destination 10.244.0.7:8080");
    expect(after).toContain("--to-destination 10.244.0.5:8080");
    expect(metrics.syncPartialProxyRulesLatency.count({ ip_family: "IPv4" })).toBe(1);
    expect(metrics.iptablesRestoreFailuresTotal.get({ ip_family: "IPv4" })).toBe(0);
    expect(metrics.registry.render()).toContain('kubeproxy_sync_proxy_rules_iptables_total{ip_family="IPv6",table="nat"}');
  });

  it("nftables: both tables load; a partial transaction and the delayed stale-chain delete apply too", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const metrics = newProxyMetrics();
    const d = newDualStackNftablesProxier({
      ipv4: { ...opts("10.244.0.0/16", "10.244.0.1"), serviceCIDRs: ["10.96.0.0/16"], clock },
      ipv6: { ...opts("fd00:10:244::/56", "fd00:10:244::1"), serviceCIDRs: ["fd00:10:96::/112"], clock },
    });
    const r4 = new FamilyRunner({ kind: "nftables", proxier: d.ipv4, applier: new NftablesApplier({ netns }) }, metrics, {
      minSyncPeriodMs: 0,
      clock,
    });
    const r6 = new FamilyRunner({ kind: "nftables", proxier: d.ipv6, applier: new NftablesApplier({ netns }) }, metrics, {
      minSyncPeriodMs: 0,
      clock,
    });
    populate(d.meta, [svc], [v4Before, v6Before]);
    await r4.syncNow();
    await r6.syncNow();
    expect(metrics.nftablesSyncFailuresTotal.get({ ip_family: "IPv4" })).toBe(0);
    expect(metrics.nftablesSyncFailuresTotal.get({ ip_family: "IPv6" })).toBe(0);
    const t4 = inNs("nft", "list", "table", "ip", "kube-proxy");
    expect(t4).toContain("chain service-5LTONX6P-default/kp-web/tcp/http");
    expect(t4).toMatch(/10\.96\.0\.10 \. tcp \. 80 : goto service-5LTONX6P-default\/kp-web\/tcp\/http/);
    expect(inNs("nft", "list", "table", "ip6", "kube-proxy")).toContain(
      "chain endpoint-FGEVSRXK-default/kp-web/tcp/http__fd00.10.244..5/8080",
    );

    d.meta.onEndpointSliceUpdate(v4Before, v4After);
    await r4.syncNow();
    expect(metrics.nftablesSyncFailuresTotal.get({ ip_family: "IPv4" })).toBe(0);
    expect(inNs("nft", "list", "chain", "ip", "kube-proxy", "service-5LTONX6P-default/kp-web/tcp/http")).toContain("10.244.0.7/8080");
    now += 2000;
    await r4.syncNow();
    expect(metrics.nftablesSyncFailuresTotal.get({ ip_family: "IPv4" })).toBe(0);
    expect(inNs("nft", "list", "chains", "ip")).not.toContain("endpoint-A56GOCGZ-default/kp-web/tcp/http__10.244.0.6/8080");
    inNs("nft", "delete", "table", "ip", "kube-proxy");
    inNs("nft", "delete", "table", "ip6", "kube-proxy");
  });
});
