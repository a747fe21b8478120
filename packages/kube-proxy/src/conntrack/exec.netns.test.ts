/**
 * ExecConntrack against a real conntrack table, in a network namespace of its own: flows are
 * inserted with `conntrack -I` as NAT would leave them, and the reconciler deletes the stale
 * ones. Skipped with a warning when not root or conntrack-tools are missing.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { IptablesProxier } from "../iptables/proxier.ts";
import { populate } from "../proxy/populate.ts";
import { applyUnavailableReason } from "../runner/exec.ts";
import { makeTestEndpointSlice, makeTestService } from "../testing/fixtures.ts";
import { cleanStaleEntries } from "./cleanup.ts";
import { ExecConntrack } from "./exec.ts";

const netns = `sn-kp-ct-${randomBytes(4).toString("hex")}`;
let skipReason = applyUnavailableReason(["ip", "conntrack"]);
if (skipReason === undefined) {
  const r = spawnSync("ip", ["netns", "add", netns], { encoding: "utf8" });
  if (r.status !== 0) skipReason = `ip netns add failed: ${r.stderr.trim()}`;
}
if (skipReason !== undefined) console.warn(`skipping the conntrack kernel test: ${skipReason}`);

/** A UDP flow client -> Service DNATed to `endpoint`, as the kernel records it. */
function insertFlow(sport: number, dst: string, dport: number, endpoint: string, eport: number): void {
  const argv = ["netns", "exec", netns, "conntrack", "-I", "-p", "udp", "-s", "10.0.0.1", "-d", dst, "--sport", String(sport)];
  argv.push(
    "--dport",
    String(dport),
    "-r",
    endpoint,
    "-q",
    "10.0.0.1",
    "--reply-port-src",
    String(eport),
    "--reply-port-dst",
    String(sport),
    "-t",
    "120",
  );
  const r = spawnSync("ip", argv, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`conntrack -I: ${r.stderr}`);
}

describe.skipIf(skipReason !== undefined)("ExecConntrack in a network namespace", () => {
  afterAll(() => void spawnSync("ip", ["netns", "del", netns]));

  it("lists the kernel's UDP flows and deletes those not replied by a serving endpoint (ClusterIP and NodePort)", async () => {
    const svc = makeTestService("kube-system", "dns", (s) => {
      s.spec.type = "NodePort";
      s.spec.clusterIP = "10.96.0.10";
      s.spec.clusterIPs = ["10.96.0.10"];
      s.spec.ports = [{ name: "dns", port: 53, protocol: "UDP", targetPort: 5353, nodePort: 30053 }];
    });
    const eps = makeTestEndpointSlice("kube-system", "dns", 1, (e) => {
      e.endpoints = [{ addresses: ["10.244.0.6"] }];
      e.ports = [{ name: "dns", port: 5353, protocol: "UDP" }];
    });
    const p = new IptablesProxier({ ipFamily: "IPv4", nodeName: "n1" });
    populate(p, [svc], [eps]);
    const r = p.syncProxyRules();
    if (r !== null) p.commit(r);
    insertFlow(40001, "10.96.0.10", 53, "10.244.0.5", 5353); // the endpoint that went away
    insertFlow(40002, "10.96.0.10", 53, "10.244.0.6", 5353); // the serving one
    insertFlow(40003, "192.168.0.2", 30053, "10.244.0.5", 5353); // NodePort to the old one
    insertFlow(40004, "10.96.0.99", 53, "10.244.0.5", 5353); // not a Service: left alone
    const ct = new ExecConntrack(netns);
    expect((await ct.listEntries("IPv4")).map((f) => f.replySrc).sort()).toEqual(["10.244.0.5", "10.244.0.5", "10.244.0.5", "10.244.0.6"]);
    const out = await cleanStaleEntries(ct, "IPv4", p.svcPortMap, p.endpointsMap);
    expect(out.deleted).toBe(2);
    const left = (await ct.listEntries("IPv4")).map((f) => `${f.origDst}:${f.origPortDst}>${f.replySrc}`).sort();
    expect(left).toEqual(["10.96.0.10:53>10.244.0.6", "10.96.0.99:53>10.244.0.5"]);
  });
});
