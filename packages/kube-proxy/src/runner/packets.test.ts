/**
 * Real packets through generated rules, inside a network namespace this test
 * creates: a veth end carries two "pod" addresses served by a small
 * HTTP server; requests to the ClusterIP must reach both, first through the
 * iptables rules, then through the nftables table. Skipped when not root.
 */
import { randomBytes } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IptablesProxier } from "../iptables/proxier.ts";
import { NftablesProxier } from "../nftables/proxier.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { IptablesApplier, NftablesApplier } from "./appliers.ts";
import { applyUnavailableReason, inNetns, run } from "./exec.ts";

const ns = `sn-kp-test-${randomBytes(4).toString("hex")}`;
let skipReason = applyUnavailableReason(["ip", "iptables-restore", "nft"]);
if (skipReason === undefined && spawnSync("ip", ["netns", "add", ns]).status !== 0) skipReason = "ip netns add failed";
if (skipReason !== undefined) console.warn(`skipping packet tests: ${skipReason}`);

const sh = (...argv: string[]) => {
  const r = spawnSync("ip", ["netns", "exec", ns, ...argv], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

const serverScript = `require("http").createServer((q, s) => s.end(q.socket.localAddress)).listen(8080, "0.0.0.0", () => console.log("ready"))`;
// 12 requests to the ClusterIP; prints the endpoint addresses that answered, or the error.
const clientScript = `const http = require("http"); const out = [];
const one = (i) => i === 12 ? console.log(out.join(",")) : http.get({ host: "10.96.0.10", port: 80, agent: false, timeout: 2000 }, (r) => { let b = ""; r.on("data", (d) => (b += d)); r.on("end", () => { out.push(b); one(i + 1); }); }).on("timeout", function () { this.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })); }).on("error", (e) => { out.push("ERR:" + e.code); one(i + 1); });
one(0);`;

const svc = makeTestService("default", "kp-web", (s) => {
  s.spec.clusterIP = "10.96.0.10";
  s.spec.clusterIPs = ["10.96.0.10"];
  s.spec.ipFamilies = ["IPv4"];
  s.spec.ports = [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }];
});
const slice = makeTestEndpointSlice("default", "kp-web", 1, (e) => {
  e.endpoints = [{ addresses: ["10.244.0.5"] }, { addresses: ["10.244.0.6"] }];
  e.ports = [tcpPort("http", 8080)];
});
const opts = {
  ipFamily: "IPv4" as const,
  nodeName: "node",
  clusterCIDR: "10.244.0.0/16",
  nodeIPs: ["10.244.0.99"],
  serviceCIDRs: ["10.96.0.0/16"],
};

let server: ChildProcess | undefined;

describe.skipIf(skipReason !== undefined)(`packets in netns ${ns}`, { timeout: 300_000 }, () => {
  beforeAll(async () => {
    sh("ip", "link", "set", "lo", "up");
    // Both veth ends stay in the namespace (the kernel here has no dummy driver).
    sh("ip", "link", "add", "kp0", "type", "veth", "peer", "name", "kp1");
    sh("ip", "link", "set", "kp0", "up");
    sh("ip", "link", "set", "kp1", "up");
    for (const a of ["10.244.0.99/24", "10.244.0.5/24", "10.244.0.6/24"]) sh("ip", "addr", "add", a, "dev", "kp0");
    // The node's own source address is not an endpoint, so no hairpin masquerade is involved.
    sh("ip", "route", "add", "10.96.0.0/16", "dev", "kp0", "src", "10.244.0.99");
    const child = spawn("ip", ["netns", "exec", ns, process.execPath, "-e", serverScript], { stdio: ["ignore", "pipe", "inherit"] });
    server = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      child.on("exit", (code) => reject(new Error(`server exited ${code}`)));
    });
  });
  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((r) => server?.once("exit", r));
      server.kill();
      await exited;
    }
    spawnSync("ip", ["netns", "del", ns]);
  });

  const requestEndpoints = async () => (await run(inNetns(ns, [process.execPath, "-e", clientScript]))).stdout.trim().split(",");

  it("ClusterIP traffic reaches both endpoints through iptables, then nftables; no endpoints means refused", async () => {
    const ipt = new IptablesProxier(opts);
    populate(ipt, [svc], [slice]);
    const r = ipt.syncProxyRules();
    if (r === null) throw new Error("not initialized");
    await new IptablesApplier({ netns: ns }).apply(r);
    ipt.commit(r);
    // 12 requests over two endpoints at p = 0.5: all on one side has probability 2^-11.
    expect(new Set(await requestEndpoints())).toEqual(new Set(["10.244.0.5", "10.244.0.6"]));
    for (const t of ["nat", "filter"]) {
      sh("iptables", "-t", t, "-F");
      sh("iptables", "-t", t, "-X");
    }

    const nft = new NftablesProxier(opts);
    populate(nft, [svc], [slice]);
    const applier = new NftablesApplier({ netns: ns });
    const full = nft.syncProxyRules();
    if (full === null) throw new Error("not initialized");
    await applier.apply(full);
    nft.commit(full);
    expect(new Set(await requestEndpoints())).toEqual(new Set(["10.244.0.5", "10.244.0.6"]));

    nft.onEndpointSliceDelete(slice);
    const partial = nft.syncProxyRules();
    if (partial === null) throw new Error("not initialized");
    expect(partial.full).toBe(false);
    await applier.apply(partial);
    nft.commit(partial);
    expect(new Set(await requestEndpoints())).toEqual(new Set(["ERR:ECONNREFUSED"]));
  });
});
