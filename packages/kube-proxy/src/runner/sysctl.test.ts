/** ensureSysctl / ensureProxySysctls against a temporary sysctl tree (never the real /proc/sys). */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { textLogger } from "@servicenet/component-base/logs";
import { ensureProxySysctls } from "../cmd/server.ts";
import { ensureSysctl, getSysctl, routeLocalnetMessage, sysctlRouteLocalnet } from "./sysctl.ts";

let root = "";
afterEach(async () => {
  if (root !== "") await rm(root, { recursive: true, force: true });
  root = "";
});

async function tree(value: string | undefined): Promise<string> {
  root = await mkdtemp(join(tmpdir(), "sn-kp-sysctl-"));
  await mkdir(dirname(join(root, sysctlRouteLocalnet)), { recursive: true });
  if (value !== undefined) await writeFile(join(root, sysctlRouteLocalnet), value);
  return root;
}
const read = () => readFile(join(root, sysctlRouteLocalnet), "utf8");

describe("ensureSysctl", () => {
  it("writes the value when it differs and returns the old one", async () => {
    const r = await tree("0\n");
    expect(await ensureSysctl(sysctlRouteLocalnet, 1, r)).toBe(0);
    expect(await read()).toBe("1\n");
    expect(await getSysctl(sysctlRouteLocalnet, r)).toBe(1);
  });
  it("leaves an equal value alone", async () => {
    const r = await tree("1");
    expect(await ensureSysctl(sysctlRouteLocalnet, 1, r)).toBe(1);
    expect(await read()).toBe("1");
  });
  it("fails with upstream's wording when the sysctl cannot be written", async () => {
    const r = await tree(undefined);
    await expect(ensureSysctl("net/nope/x", 1, r)).rejects.toThrow(/^can't set sysctl net\/nope\/x to 1: /);
  });
});

describe("ensureProxySysctls", () => {
  const node = { nodeIPs: { IPv4: ["192.168.0.2"], IPv6: [] }, nodePortAddresses: [] };
  const cases = [
    { name: "iptables, programming the kernel", o: { proxyMode: "iptables", dryRunDir: undefined }, want: "1\n", logged: true },
    { name: "iptables, dry-run", o: { proxyMode: "iptables", dryRunDir: "/tmp/x" }, want: "0", logged: false },
    { name: "nftables", o: { proxyMode: "nftables", dryRunDir: undefined }, want: "0", logged: false },
    // NewProxier: localhost NodePorts only when --nodeport-addresses contains 127.0.0.0/8.
    {
      name: "iptables, --nodeport-addresses without loopback",
      o: { proxyMode: "iptables", dryRunDir: undefined, nodePortAddresses: ["192.168.0.0/24"] },
      want: "0",
      logged: false,
    },
    {
      name: "iptables, --nodeport-addresses primary",
      o: { proxyMode: "iptables", dryRunDir: undefined, nodePortAddresses: ["primary"] },
      want: "0",
      logged: false,
    },
    {
      name: "iptables, --nodeport-addresses with 127.0.0.1/32",
      o: { proxyMode: "iptables", dryRunDir: undefined, nodePortAddresses: ["127.0.0.1/32"] },
      want: "1\n",
      logged: true,
    },
  ] as const;
  it.each(cases)("$name", async ({ o, want, logged }) => {
    const r = await tree("0");
    const logs: string[] = [];
    await ensureProxySysctls(
      { ...node, ...o },
      textLogger((m) => logs.push(m)),
      r,
    );
    expect(await read()).toBe(want);
    expect(logs).toEqual(logged ? [JSON.stringify(routeLocalnetMessage)] : []);
  });
});
