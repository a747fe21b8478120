/** The CLI's server against the fake apiserver of @servicenet/testing (lists and watches over HTTP), in dry-run mode. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, FakeAPIServer } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noopLogger } from "@servicenet/component-base/logs";
import { parseOptions } from "./options.ts";
import { runProxyServer } from "./server.ts";
import type { RunningProxyServer } from "./server.ts";

const service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name: "kp-web", resourceVersion: "1" },
  spec: {
    type: "ClusterIP",
    clusterIP: "10.96.0.10",
    clusterIPs: ["10.96.0.10", "fd00:10:96::10"],
    ipFamilies: ["IPv4", "IPv6"],
    ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
  },
};
const slice = (family: "IPv4" | "IPv6", ips: string[], rv: string) => ({
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { namespace: "default", name: `kp-web-${family}`, resourceVersion: rv, labels: { "kubernetes.io/service-name": "kp-web" } },
  addressType: family,
  endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
  ports: [{ name: "http", port: 8080, protocol: "TCP" }],
});

// The one fake apiserver of the workspace: lists, and watches from the list's resourceVersion.
const api = new FakeAPIServer({
  objects: [service, slice("IPv4", ["10.244.0.5", "10.244.0.6"], "2"), slice("IPv6", ["fd00:10:244::5"], "3")],
});

let dir = "";
let kubeconfig = "";
let server: RunningProxyServer | undefined;

beforeAll(async () => {
  const url = await api.start();
  dir = await mkdtemp(join(tmpdir(), "sn-kp-cli-"));
  kubeconfig = join(dir, "kubeconfig");
  await writeFile(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${url}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
});

afterAll(async () => {
  await server?.stop();
  await api.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("servicenet-kube-proxy --dry-run", { timeout: 120_000 }, () => {
  it("lists and watches over HTTP and writes per-family rule files", async () => {
    const out = join(dir, "rules");
    const opts = parseOptions([
      "--kubeconfig",
      kubeconfig,
      "--dry-run",
      out,
      "--hostname-override",
      "node-a",
      "--cluster-cidr",
      "10.244.0.0/16,fd00:10:244::/56",
      "--metrics-bind-address",
      "127.0.0.1:0",
      "--healthz-bind-address",
      "127.0.0.1:0",
      "--min-sync-period",
      "0s",
    ]);
    server = await runProxyServer(opts, noopLogger);
    const v4 = join(out, "iptables-ipv4.rules");
    const v6 = join(out, "iptables-ipv6.rules");
    await eventually(async () => (await readFile(v4, "utf8")).includes("--to-destination 10.244.0.6:8080"));
    await eventually(async () => (await readFile(v6, "utf8")).includes("--to-destination [fd00:10:244::5]:8080"));
    expect(await readFile(v4, "utf8")).toContain(":KUBE-SVC-5PNJSAMYWXRDMV6C - [0:0]");

    // A watch event: the IPv4 slice loses one endpoint; the next (partial) sync drops its chain.
    api.tracker.add([slice("IPv4", ["10.244.0.5"], "11")]);
    await eventually(async () =>
      (await readFile(join(out, "iptables-ipv4.last-sync.rules"), "utf8")).includes("-X KUBE-SEP-ML44CQ5VA4U6ZY4S"),
    );
    // The rules file is the current ruleset: the chain is gone from it, the other endpoint's stays.
    expect(await readFile(v4, "utf8")).not.toContain("KUBE-SEP-ML44CQ5VA4U6ZY4S");
    expect(await readFile(v4, "utf8")).toContain("--to-destination 10.244.0.5:8080");

    const res = await fetch(`http://${server.metricsAddress}/metrics`);
    const text = await res.text();
    expect(text).toContain('kubeproxy_sync_partial_proxy_rules_duration_seconds_count{ip_family="IPv4"} 1');
    expect(text).toContain('kubeproxy_sync_proxy_rules_endpoint_changes_total{ip_family="IPv4"} 2');

    // The health server (proxier_health.go): both families synced, so healthy, this node eligible.
    const healthz = await fetch(`http://${server.healthzAddress}/healthz`);
    expect(healthz.status).toBe(200);
    expect(healthz.headers.get("content-type")).toBe("application/json");
    expect(await healthz.text()).toMatch(/^\{"lastUpdated": "[^"]+ \+0000 UTC m=\+[\d.]+","currentTime": "[^"]+", "nodeEligible": true\}$/);
    expect((await fetch(`http://${server.healthzAddress}/livez`)).status).toBe(200);

    // Only this node, on LIST and on WATCH (upstream's field selector; the WATCH used to see every Node).
    const nodeQueries = api.actions.filter((a) => a.resource.name === "nodes").map((a) => [a.verb, a.query.get("fieldSelector")]);
    expect(nodeQueries).toEqual([
      ["list", "metadata.name=node-a"],
      ["watch", "metadata.name=node-a"],
    ]);
  });

  it.each([
    [["--proxy-mode", "ipvs", "--kubeconfig", "k"], "--proxy-mode must be iptables or nftables"],
    [
      ["--cluster-cidr", "10.0.0.0/8,10.1.0.0/16", "--kubeconfig", "k"],
      'failed validate: KubeProxyConfiguration.DetectLocalConfiguration.ClusterCIDRs: Invalid value: []string{"10.0.0.0/8", "10.1.0.0/16"}: must be a either a single CIDR or dual-stack pair of CIDRs (e.g. [10.100.0.0/16, fde4:8dba:82e1::/48]',
    ],
    [[], "--kubeconfig is required"],
    // A duration flag is a Go time.Duration: a bare number is not milliseconds, it is an error.
    [["--min-sync-period", "500", "--kubeconfig", "k"], 'time: invalid duration "500"'],
  ])("rejects bad flags %j", (argv, msg) => {
    expect(() => parseOptions(argv)).toThrow(msg);
  });

  it("parses -v, --healthz-bind-address and its loopback default", () => {
    expect(parseOptions(["--kubeconfig", "k"])).toMatchObject({ healthzBindAddress: "127.0.0.1:10256", verbosity: 0 });
    expect(parseOptions(["--kubeconfig", "k", "-v=4", "--healthz-bind-address", ""])).toMatchObject({
      healthzBindAddress: "",
      verbosity: 4,
    });
    expect(parseOptions(["--kubeconfig", "k", "--v", "2"])).toMatchObject({ verbosity: 2 });
    expect(() => parseOptions(["--kubeconfig", "k", "-v", "x"])).toThrow('invalid argument "x" for "-v, --v" flag');
  });

  it("parses --sync-period and --min-sync-period as Go durations", () => {
    expect(parseOptions(["--kubeconfig", "k", "--sync-period", "1m30s", "--min-sync-period", "250ms"])).toMatchObject({
      syncPeriodMs: 90_000,
      minSyncPeriodMs: 250,
    });
  });
});
