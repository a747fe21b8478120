/**
 * The repair hooks of a started apiserver free what a crash leaves behind: bitmap bits and
 * NodePorts taken by creates that never stored their Service (the write order is allocate, then
 * store). Each mode with a short repair interval; a leak is freed on the third run.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseIP } from "@servicenet/api";
import { eventually } from "@servicenet/testing";
import { featureGatesForMode, type AllocatorMode } from "../../features/kube-features.ts";
import { startTestServer, type TestServer } from "../../server/testing.ts";

describe.each<AllocatorMode>(["bitmap", "dual-write", "ipaddress"])("repair hooks in %s mode", (mode) => {
  let s: TestServer | undefined;
  afterEach(async () => s?.close());

  it("frees leaked NodePorts and bitmap bits after three runs, keeps the held ones", async () => {
    s = await startTestServer({
      tls: false,
      serviceClusterIPRange: "10.0.0.0/24",
      featureGates: featureGatesForMode(mode),
      repairIntervalMs: 100,
    });
    const sa = s.api.serviceAllocators;
    const held = await s.request("/api/v1/namespaces/default/services", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "np" },
        spec: { type: "NodePort", ports: [{ port: 80, nodePort: 30100 }] },
      }),
    });
    expect(held.status).toBe(201);
    const heldIP = parseIP((held.json() as { spec: { clusterIP: string } }).spec.clusterIP)!;
    await sa.ports.allocate(30200); // a crash after the allocation, before the Service write
    const bitmap = sa.bitmaps.get("IPv4");
    // Any address the held Service did not get.
    const leakedIP = parseIP(heldIP.value === parseIP("10.0.0.200")!.value ? "10.0.0.201" : "10.0.0.200")!;
    if (bitmap) await bitmap.allocate(leakedIP);
    expect(await eventually(() => !sa.ports.has(30200) && !(bitmap?.has(leakedIP) ?? false), { timeoutMs: 10_000 })).toBe(true);
    expect(sa.ports.has(30100)).toBe(true);
    if (bitmap) expect(bitmap.has(heldIP)).toBe(true);
  });
});
