import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textLogger } from "@servicenet/component-base/logs";
import { writeConfigFile } from "./run-options.ts";
import { parseOptions } from "./options.ts";

const dir = mkdtempSync(join(tmpdir(), "sn-kp-config-"));
let n = 0;
function file(text: string): string {
  const f = join(dir, `c${n++}.yaml`);
  writeFileSync(f, text);
  return f;
}
const header = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";

describe("--config (cmd/kube-proxy/app/options.go Complete and loadConfig)", () => {
  it("the file replaces the flags, except -v and --hostname-override", () => {
    const f = file(
      header +
        [
          "clientConnection: {kubeconfig: /etc/kp.conf}",
          "mode: nftables",
          "hostnameOverride: from-file",
          "clusterCIDR: 10.0.0.0/8,fd00:10::/64",
          "detectLocalMode: InterfaceNamePrefix",
          "detectLocal: {interfaceNamePrefix: veth}",
          "nodePortAddresses: [192.168.0.0/16]",
          "nftables: {masqueradeAll: true, syncPeriod: 1m, minSyncPeriod: 2s}",
          "metricsBindAddress: 127.0.0.1:0",
          "logging: {verbosity: 3}",
        ].join("\n"),
    );
    const o = parseOptions(["--config", f, "--kubeconfig", "ignored", "--proxy-mode", "iptables"]);
    expect(o).toMatchObject({
      kubeconfig: "/etc/kp.conf",
      proxyMode: "nftables",
      hostnameOverride: "from-file",
      clusterCIDRs: { IPv4: "10.0.0.0/8", IPv6: "fd00:10::/64" },
      detectLocalMode: "InterfaceNamePrefix",
      podInterfaceNamePrefix: "veth",
      nodePortAddresses: ["192.168.0.0/16"],
      masqueradeAll: true,
      syncPeriodMs: 60_000,
      minSyncPeriodMs: 2000,
      metricsBindAddress: "127.0.0.1:0",
      healthzBindAddress: "127.0.0.1:10256",
      verbosity: 3,
    });
    expect(parseOptions(["--config", f, "-v", "5", "--hostname-override", "Node-B"])).toMatchObject({
      verbosity: 5,
      hostnameOverride: "node-b",
    });
  });

  it("defaults what the file leaves out; nftables mode NodePorts on primary", () => {
    const o = parseOptions(["--config", file(header + "clientConnection: {kubeconfig: k}\nmode: nftables\n")]);
    expect(o).toMatchObject({
      syncPeriodMs: 30_000,
      minSyncPeriodMs: 1000,
      nodePortAddresses: ["primary"],
      detectLocalMode: "ClusterCIDR",
    });
    expect(o.config).toMatchObject({ configSyncPeriod: "15m0s", oomScoreAdj: -999, conntrack: { maxPerCore: 32768, min: 131072 } });
  });

  it("validates the file with upstream's field paths", () => {
    const bad = file(
      header +
        "clientConnection: {kubeconfig: k}\nnodePortAddresses: [foo]\niptables: {syncPeriod: 1s, minSyncPeriod: 5s, masqueradeBit: 40}\nbindAddress: x\n",
    );
    expect(() => parseOptions(["--config", bad])).toThrow(
      'failed validate: [KubeProxyConfiguration.KubeProxyIPTablesConfiguration.MasqueradeBit: Invalid value: 40: must be within the range [0, 31], KubeProxyConfiguration.SyncPeriod: Invalid value: 5s: must be greater than or equal to KubeProxyConfiguration.MinSyncPeriod, KubeProxyConfiguration.BindAddress: Invalid value: "x": not a valid textual representation of an IP address, KubeProxyConfiguration.NodePortAddresses[0]: Invalid value: "foo": must be a valid CIDR]',
    );
  });

  it("clientConnection's qps and burst: flags (5 and 10 by default) or the file, a negative burst refused", () => {
    expect(parseOptions(["--kubeconfig", "k"]).config.clientConnection).toMatchObject({ qps: 5, burst: 10 });
    expect(parseOptions(["--kubeconfig", "k", "--kube-api-qps", "50.5", "--kube-api-burst=100"]).config.clientConnection).toMatchObject({
      qps: 50.5,
      burst: 100,
    });
    expect(
      parseOptions(["--config", file(header + "clientConnection: {kubeconfig: k, qps: 20, burst: 40}\n")]).config.clientConnection,
    ).toMatchObject({
      qps: 20,
      burst: 40,
    });
    expect(() => parseOptions(["--kubeconfig", "k", "--kube-api-burst=-1"])).toThrow(
      "failed validate: KubeProxyConfiguration.ClientConnection.Burst: Invalid value: -1: must be greater than or equal to 0",
    );
    expect(() => parseOptions(["--config", file(header + "clientConnection: {kubeconfig: k, burst: -5}\nmode: bogus\n")])).toThrow(
      'failed validate: [KubeProxyConfiguration.Mode.ProxyMode: Invalid value: "bogus": must be iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables]), KubeProxyConfiguration.ClientConnection.Burst: Invalid value: -5: must be greater than or equal to 0]',
    );
    expect(() => parseOptions(["--kubeconfig", "k", "--kube-api-qps", "x"])).toThrow(
      'invalid argument "x" for "--kube-api-qps" flag: strconv.ParseFloat: parsing "x": invalid syntax',
    );
  });

  it("decoding: kind required, only v1alpha1, wrong types fail, unknown fields are dropped with the strict error logged", () => {
    expect(() => parseOptions(["--config", file("mode: iptables\n")])).toThrow(
      "failed complete: failed to decode: Object 'Kind' is missing",
    );
    expect(() => parseOptions(["--config", file("apiVersion: kubeproxy.config.k8s.io/v1beta9\nkind: KubeProxyConfiguration\n")])).toThrow(
      'failed complete: failed to decode: no kind "KubeProxyConfiguration" is registered for version "kubeproxy.config.k8s.io/v1beta9"',
    );
    expect(() => parseOptions(["--config", file(header + "iptables: {masqueradeAll: yes-please}\n")])).toThrow(
      "failed complete: failed to decode: iptables.masqueradeAll",
    );
    expect(() => parseOptions(["--config", join(dir, "missing.yaml")])).toThrow(
      `failed complete: open ${join(dir, "missing.yaml")}: no such file or directory`,
    );
    const logs: string[] = [];
    const o = parseOptions(
      ["--config", file(header + "clientConnection: {kubeconfig: k}\nfrobnicate: 1\nconntrack: {extra: true}\n")],
      textLogger((m) => logs.push(m)),
    );
    expect(o.kubeconfig).toBe("k");
    expect(logs).toEqual([
      '"Using lenient decoding as strict decoding failed" err="strict decoding error: unknown field \\"frobnicate\\", unknown field \\"conntrack.extra\\""',
    ]);
  });

  it("--write-config-to writes the effective configuration, which loads back to the same options", async () => {
    const out = join(dir, "written.yaml");
    const o = parseOptions([
      "--kubeconfig",
      "k",
      "--proxy-mode",
      "nftables",
      "--masquerade-all",
      "--cluster-cidr",
      "10.0.0.0/8",
      "--write-config-to",
      out,
    ]);
    const logs: string[] = [];
    await writeConfigFile(
      o,
      textLogger((m) => logs.push(m)),
    );
    expect(logs).toEqual([`"Wrote configuration" file="${out}"`]);
    const text = readFileSync(out, "utf8");
    expect(text.startsWith("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nbindAddress: 0.0.0.0\n")).toBe(true);
    expect(text).toContain("nftables:\n  masqueradeAll: true\n  masqueradeBit: 14\n  minSyncPeriod: 1s\n  syncPeriod: 30s\n");
    const back = parseOptions(["--config", out]);
    const { config: _a, writeConfigTo: _b, ...rest } = o;
    const { config: _c, writeConfigTo: _d, ...restBack } = back;
    expect(restBack).toEqual(rest);
  });
});
