/**
 * The kernel's own check of every Service shape's full sync: `iptables-restore
 * --test` / `ip6tables-restore --test` and `nft -c -f -` inside a network
 * namespace this test creates (nothing is committed, the host is never touched).
 * Skipped with a warning when not root or the tools are missing.
 */
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderShape } from "../testing/render-shapes.ts";
import type { ShapeOptions } from "../testing/render-shapes.ts";
import { detectLocalByBridgeInterface, detectLocalByInterfaceNamePrefix } from "../util/local-detector.ts";
import { serviceShapes } from "../testing/service-shapes.ts";
import { applyUnavailableReason, inNetns, run } from "./exec.ts";

const netns = `sn-kp-check-${randomBytes(4).toString("hex")}`;
let skipReason = applyUnavailableReason(["ip", "iptables-restore", "ip6tables-restore", "nft"]);
if (skipReason === undefined) {
  const r = spawnSync("ip", ["netns", "add", netns], { encoding: "utf8" });
  if (r.status !== 0) skipReason = `ip netns add failed: ${r.stderr.trim()}`;
}
if (skipReason !== undefined) console.warn(`skipping rule-set check tests: ${skipReason}`);

async function check(argv: readonly string[], input: string): Promise<string> {
  const r = await run(inNetns(netns, argv), input);
  return r.code === 0 ? "" : `${argv.join(" ")} (exit ${r.code}): ${r.stderr.trim()}`;
}

describe.skipIf(skipReason !== undefined)(`rule sets load in netns ${netns}`, { timeout: 300_000 }, () => {
  beforeAll(() => {
    spawnSync("ip", ["netns", "exec", netns, "ip", "link", "set", "lo", "up"]);
  });
  afterAll(() => {
    spawnSync("ip", ["netns", "del", netns]);
  });

  it.each(serviceShapes.map((s) => [s.name, s] as const))("%s", async (_name, shape) => {
    expect(await checkAll(renderShape(shape))).toEqual([]);
  });

  // --detect-local-mode, --nodeport-addresses (restricted: `-d` rules, @nodeport-ips) and --masquerade-all.
  const variants: [string, ShapeOptions][] = [
    ["BridgeInterface", { localDetector: detectLocalByBridgeInterface("cbr0") }],
    ["InterfaceNamePrefix", { localDetector: detectLocalByInterfaceNamePrefix("veth") }],
    ["nodeport-addresses", { nodePortAddresses: ["192.0.2.0/24", "2001:db8::/64"], interfaceAddrs: () => ["192.0.2.1", "2001:db8::1"] }],
    ["masquerade-all", { masqueradeAll: true }],
  ];
  it.each(variants)("every shape with %s", async (_name, extra) => {
    for (const shape of serviceShapes) expect([shape.name, await checkAll(renderShape(shape, extra))]).toEqual([shape.name, []]);
  });
});

async function checkAll(r: ReturnType<typeof renderShape>): Promise<string[]> {
  {
    const errors = [
      await check(["iptables-restore", "-w", "5", "--test"], r.iptables.IPv4),
      await check(["ip6tables-restore", "-w", "5", "--test"], r.iptables.IPv6),
      await check(["nft", "-c", "-f", "-"], r.nftables.IPv4),
      await check(["nft", "-c", "-f", "-"], r.nftables.IPv6),
    ].filter((e) => e !== "");
    return errors;
  }
}
