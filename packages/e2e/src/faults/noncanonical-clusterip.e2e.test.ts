/**
 * Faults: Services whose ClusterIPs are accepted but not canonical. A real `servicenet
 * up` per IPAddress allocator mode (IPAddress objects only, and dual-write) with a 1 s repair
 * interval; the four spellings the independent test used are created, the answers must keep the
 * spelling and carry upstream's warnings, the IPAddresses (named canonically) must survive the
 * repair loop's grace periods without ever disappearing, and the canonical spellings must then be
 * refused as already allocated.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, it } from "vitest";
import { apiClientFromKubeconfig, listAll, type ApiClient } from "./api-client.ts";
import { expectAllocationInvariants } from "./invariants.ts";
import { freePort, startApiserverProc, tempDir, type Proc } from "../framework/processes.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const services = "/api/v1/namespaces/default/services";
const ipAddresses = "/apis/networking.k8s.io/v1/ipaddresses";
/** The repair loop deletes a "wrong reference" IPAddress 5 s after it was created: watch past that. */
const watchMs = 7_000;

/** [spelling, canonical, warning] as the issue reported them. */
const cases: Array<[string, string, string]> = [
  [
    "010.096.000.030",
    "10.96.0.30",
    'spec.clusterIPs[0]: non-standard IP address "010.096.000.030" will be considered invalid in a future Kubernetes release: use "10.96.0.30"',
  ],
  [
    "::ffff:10.96.0.31",
    "10.96.0.31",
    'spec.clusterIPs[0]: non-standard IP address "::ffff:10.96.0.31" will be considered invalid in a future Kubernetes release: use "10.96.0.31"',
  ],
  [
    "fd00:10:96::00ab",
    "fd00:10:96::ab",
    'spec.clusterIPs[0]: IPv6 address "fd00:10:96::00ab" should be in RFC 5952 canonical format ("fd00:10:96::ab")',
  ],
  [
    "FD00:10:96::AC",
    "fd00:10:96::ac",
    'spec.clusterIPs[0]: IPv6 address "FD00:10:96::AC" should be in RFC 5952 canonical format ("fd00:10:96::ac")',
  ],
];
const familyOf = (ip: string): string[] => (ip.includes(":") && !ip.includes(".") ? ["IPv6"] : ["IPv4"]);

describe.concurrent.each([
  ["IPAddress objects only", "MultiCIDRServiceAllocator=true,DisableAllocatorDualWrite=true"],
  ["dual-write", "MultiCIDRServiceAllocator=true,DisableAllocatorDualWrite=false"],
])("non-canonical ClusterIPs, %s", (mode, gates) => {
  let dir = "";
  let api: Proc | undefined;
  let c: ApiClient | undefined;
  afterAll(async () => {
    c?.close();
    await api?.kill("SIGTERM");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the spelling, warns, never drops the IPAddress and never hands the address out twice", async ({ expect }) => {
    dir = tempDir("noncanonical");
    const args = ["--feature-gates", gates, "--repair-interval", "1s", "--service-cluster-ip-range", "10.96.0.0/16,fd00:10:96::/112"];
    const proc = await startApiserverProc({ dataDir: path.join(dir, "up"), port: await freePort(), args });
    api = proc;
    c = apiClientFromKubeconfig(proc.kubeconfigPath);

    for (const [i, [spelling, , warning]] of cases.entries()) {
      const r = await c.call("POST", services, {
        metadata: { name: `odd-${i}` },
        spec: { clusterIP: spelling, ipFamilies: familyOf(spelling), ports: [{ port: 80 }] },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.spec.clusterIPs).toEqual([spelling]);
      expect(r.warnings).toEqual([warning]);
    }
    const uids = async () => new Map((await listAll(c!, ipAddresses)).map((a) => [a.metadata.name as string, a.metadata.uid as string]));
    const first = await uids();
    let samples = 0;
    const missing: string[] = [];
    const changed = new Set<string>();
    for (const start = Date.now(); Date.now() - start < watchMs; await sleep(250)) {
      const now = await uids();
      samples++;
      for (const [, canonical] of cases) {
        if (!now.has(canonical)) missing.push(canonical);
        else if (now.get(canonical) !== first.get(canonical)) changed.add(canonical);
      }
    }
    expect(missing).toEqual([]);
    expect([...changed]).toEqual([]);
    for (const [i, [, canonical]] of cases.entries()) {
      const r = await c.call("POST", services, {
        metadata: { name: `dup-${i}` },
        spec: { clusterIP: canonical, ipFamilies: familyOf(canonical), ports: [{ port: 80 }] },
      });
      expect(r.status, `${canonical}: ${JSON.stringify(r.body)}`).toBe(422);
    }
    const report = await expectAllocationInvariants(c, 5_000);
    console.log(
      `e2e faults/noncanonical-clusterip (${mode}): ${cases.length} odd spellings kept with warnings; ${samples} IPAddress samples over ${watchMs} ms, none missing or recreated; canonical duplicates refused; ${report.clusterIPs} ClusterIPs, none held twice`,
    );
  });
});
