import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DryRunConntrack, FakeConntrack } from "../conntrack/index.ts";
import { newDualStackIptablesProxier } from "../metaproxier/dual-stack.ts";
import { newProxyMetrics } from "../metrics/metrics.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService } from "../testing/fixtures.ts";
import type { Applier } from "./appliers.ts";
import { FamilyRunner } from "./family-runner.ts";
import type { IptablesSyncResult } from "../iptables/proxier.ts";

const dns = makeTestService("kube-system", "dns", (s) => {
  s.spec.clusterIP = "10.96.0.10";
  s.spec.clusterIPs = ["10.96.0.10"];
  s.spec.ports = [{ name: "dns", port: 53, protocol: "UDP", targetPort: 5353 }];
});
const slice = (ips: string[]) =>
  makeTestEndpointSlice("kube-system", "dns", 1, (e) => {
    e.endpoints = ips.map((ip) => ({ addresses: [ip] }));
    e.ports = [{ name: "dns", port: 5353, protocol: "UDP" }];
  });
const noop: Applier<IptablesSyncResult> = { apply: async () => {} };
const flowTo = (replySrc: string) => ({ protocol: "udp", origDst: "10.96.0.10", origPortDst: 53, replySrc, replyPortSrc: 5353 });

describe("the conntrack reconciler after each applied sync", () => {
  it("deletes the UDP flows of an endpoint that went away and counts them in kubeproxy_conntrack_reconciler_deleted_entries_total", async () => {
    const d = newDualStackIptablesProxier({ ipv4: { nodeName: "n1" }, ipv6: { nodeName: "n1" } });
    const metrics = newProxyMetrics();
    const ct = new FakeConntrack([flowTo("10.244.0.5"), flowTo("10.244.0.6")]);
    const runner = new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier: noop }, metrics, { conntrack: ct });
    const before = slice(["10.244.0.5", "10.244.0.6"]);
    populate(d.meta, [dns], [before]);
    await runner.syncNow();
    expect(ct.entries).toHaveLength(2);
    d.meta.onEndpointSliceUpdate(before, slice(["10.244.0.6", "10.244.0.7"]));
    await runner.syncNow();
    expect(ct.entries).toEqual([flowTo("10.244.0.6")]);
    const text = metrics.registry.render();
    expect(text).toContain('kubeproxy_conntrack_reconciler_deleted_entries_total{ip_family="IPv4"} 1');
    expect(text).toContain('kubeproxy_conntrack_reconciler_sync_duration_seconds_count{ip_family="IPv4"} 2');
  });

  it("in dry-run writes what it enforces per family, and a failing table is logged, not a failed sync", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sn-kp-ct-"));
    try {
      const d = newDualStackIptablesProxier({ ipv4: { nodeName: "n1" }, ipv6: { nodeName: "n1" } });
      const ct = new DryRunConntrack(dir);
      const runner = new FamilyRunner({ kind: "iptables", proxier: d.ipv4, applier: noop }, newProxyMetrics(), { conntrack: ct });
      populate(d.meta, [dns], [slice(["10.244.0.6", "10.244.0.5"])]);
      await runner.syncNow();
      expect(await readFile(ct.fileFor("IPv4"), "utf8")).toBe("udp 10.96.0.10:53 keeps flows replied by 10.244.0.5:5353,10.244.0.6:5353\n");

      const logged: string[] = [];
      const broken = { listEntries: async () => Promise.reject(new Error("conntrack: not found")), clearEntries: async () => 0 };
      const r2 = new FamilyRunner({ kind: "iptables", proxier: d.ipv6, applier: noop }, newProxyMetrics(), {
        conntrack: broken,
        logger: { info() {}, error: (m) => logged.push(m) },
      });
      await r2.syncNow();
      expect(logged).toEqual(["conntrack IPv6: failed to clear stale UDP entries: conntrack: not found"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
