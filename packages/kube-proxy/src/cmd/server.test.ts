/** The CLI's server against a small in-test API server (lists and watches over HTTP), in dry-run mode. */
import { createServer } from "node:http";
import type { ServerResponse } from "node:http";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const lists: Record<string, { kind: string; apiVersion: string; items: unknown[] }> = {
  "/api/v1/services": { kind: "ServiceList", apiVersion: "v1", items: [service] },
  "/apis/discovery.k8s.io/v1/endpointslices": {
    kind: "EndpointSliceList",
    apiVersion: "discovery.k8s.io/v1",
    items: [slice("IPv4", ["10.244.0.5", "10.244.0.6"], "2"), slice("IPv6", ["fd00:10:244::5"], "3")],
  },
  "/apis/networking.k8s.io/v1/servicecidrs": { kind: "ServiceCIDRList", apiVersion: "networking.k8s.io/v1", items: [] },
  "/api/v1/nodes": { kind: "NodeList", apiVersion: "v1", items: [] },
};
const watchers = new Map<string, ServerResponse[]>();
/** Query strings of every LIST and WATCH, by path. */
const queries = new Map<string, string[]>();

const api = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  const list = lists[url.pathname];
  if (list === undefined) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code: 404 }));
    return;
  }
  queries.set(url.pathname, [...(queries.get(url.pathname) ?? []), url.search]);
  res.writeHead(200, { "content-type": "application/json" });
  if (url.searchParams.get("watch") === "true") {
    watchers.set(url.pathname, [...(watchers.get(url.pathname) ?? []), res]);
    res.write("");
    return;
  }
  res.end(JSON.stringify({ ...list, metadata: { resourceVersion: "10" } }));
});

let dir = "";
let kubeconfig = "";
let server: RunningProxyServer | undefined;

beforeAll(async () => {
  await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
  const addr = api.address();
  if (addr === null || typeof addr === "string") throw new Error("no address");
  dir = await mkdtemp(join(tmpdir(), "sn-kp-cli-"));
  kubeconfig = join(dir, "kubeconfig");
  await writeFile(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${addr.port}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
});

afterAll(async () => {
  await server?.stop();
  for (const rs of watchers.values()) for (const r of rs) r.end();
  await new Promise<void>((r) => api.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("servicenet-kube-proxy --dry-run", { timeout: 20_000 }, () => {
  it("lists and watches over HTTP and writes per-family rule files", async () => {
    const out = join(dir, "rules");
    const opts = parseOptions(["--kubeconfig", kubeconfig, "--dry-run", out, "--hostname-override", "node-a", "--cluster-cidr", "10.244.0.0/16,fd00:10:244::/56", "--metrics-bind-address", "127.0.0.1:0", "--min-sync-period", "0s"]);
    server = await runProxyServer(opts, () => {});
    const v4 = join(out, "iptables-ipv4.rules");
    const v6 = join(out, "iptables-ipv6.rules");
    await eventually(async () => (await readFile(v4, "utf8")).includes("--to-destination 10.244.0.6:8080"));
    await eventually(async () => (await readFile(v6, "utf8")).includes("--to-destination [fd00:10:244::5]:8080"));
    expect(await readFile(v4, "utf8")).toContain(":KUBE-SVC-5PNJSAMYWXRDMV6C - [0:0]");

    // A watch event: the IPv4 slice loses one endpoint; the next (partial) sync drops its chain.
    const event = { type: "MODIFIED", object: slice("IPv4", ["10.244.0.5"], "11") };
    for (const w of watchers.get("/apis/discovery.k8s.io/v1/endpointslices") ?? []) w.write(JSON.stringify(event) + "\n");
    await eventually(async () => (await readFile(v4, "utf8")).includes("-X KUBE-SEP-ML44CQ5VA4U6ZY4S"));

    const res = await fetch(`http://${server.metricsAddress}/metrics`);
    const text = await res.text();
    expect(text).toContain('kubeproxy_sync_partial_proxy_rules_duration_seconds_count{ip_family="IPv4"} 1');
    expect(text).toContain('kubeproxy_sync_proxy_rules_endpoint_changes_total{ip_family="IPv4"} 2');

    // Only this node, on LIST and on WATCH (upstream's field selector; the WATCH used to see every Node).
    const nodeQueries = (queries.get("/api/v1/nodes") ?? []).map((q) => new URLSearchParams(q));
    expect(nodeQueries.map((q) => [q.get("watch"), q.get("fieldSelector")])).toEqual([
      [null, "metadata.name=node-a"],
      ["true", "metadata.name=node-a"],
    ]);
  });

  it.each([
    [["--proxy-mode", "ipvs", "--kubeconfig", "k"], "--proxy-mode must be iptables or nftables"],
    [["--cluster-cidr", "10.0.0.0/8,10.1.0.0/16", "--kubeconfig", "k"], "two IPv4 CIDRs"],
    [[], "--kubeconfig is required"],
    // A duration flag is a Go time.Duration: a bare number is not milliseconds, it is an error.
    [["--min-sync-period", "500", "--kubeconfig", "k"], 'time: invalid duration "500"'],
  ])("rejects bad flags %j", (argv, msg) => {
    expect(() => parseOptions(argv)).toThrow(msg);
  });

  it("parses --sync-period and --min-sync-period as Go durations", () => {
    expect(parseOptions(["--kubeconfig", "k", "--sync-period", "1m30s", "--min-sync-period", "250ms"])).toMatchObject({ syncPeriodMs: 90_000, minSyncPeriodMs: 250 });
  });
});
