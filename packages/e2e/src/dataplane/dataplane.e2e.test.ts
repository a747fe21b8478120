/**
 * Issue 8's dataplane e2e: real apiserver and controller-manager processes in node n1's namespace,
 * a kube-proxy in each of three node namespaces (one zone each), pod namespaces with an echo server
 * each, a client namespace; real packets to dual-stack Services in both proxy modes. See netns.ts
 * and node-cluster.ts for the set-up.
 */
import { randomBytes } from "node:crypto";
import { CoreV1Api, type V1Node, type V1Pod, type V1ServiceSpec } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTopology,
  dataplaneUnavailableReason,
  deleteTopology,
  namespacesWithPrefix,
  nodeIP,
  pod1,
  pod2,
  topologyNames,
  type NodeNet,
  type Topology,
} from "./netns.ts";
import { startNodeCluster, type NodeCluster } from "./node-cluster.ts";
import { execInNetns, runScriptInNetns, startInNetns, type NetnsProcess } from "../framework/netns-process.ts";
import { echoServer, udpClient, udpEchoServer } from "./scripts.ts";
import { firstSuccess, ruleDump, sample, serviceChains, until, url, type UrlResult } from "./traffic.ts";

const unavailable = dataplaneUnavailableReason();
if (unavailable !== undefined) console.warn(`dataplane e2e skipped: ${unavailable} (needs root, iproute2, iptables, nftables)`);
const runPrefix = `sn-dp-${randomBytes(3).toString("hex")}`;
const N = 16; // per target; P(one backend never answers | 2 backends, 50/50) = 2^-15
const zoneLabel = "topology.kubernetes.io/zone";

function podBody(name: string, labels: Record<string, string>, nodeName: string): V1Pod {
  return {
    metadata: { name, labels },
    spec: { nodeName, containers: [{ name: "echo", image: "echo", ports: [{ containerPort: 8080 }] }] },
  };
}

async function setPodStatus(core: CoreV1Api, name: string, ip: { v4: string; v6: string }, ready: boolean): Promise<void> {
  const pod = await core.readNamespacedPod({ name, namespace: "default" });
  pod.status = {
    phase: "Running",
    podIP: ip.v4,
    podIPs: [{ ip: ip.v4 }, { ip: ip.v6 }],
    conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
  };
  await core.replaceNamespacedPodStatus({ name, namespace: "default", body: pod });
}

/** `_sum` and `_count` of one histogram series from Prometheus text. */
/** The Node object of `node`: its zone label and both node IPs. */
function nodeBody(node: NodeNet): V1Node {
  return {
    metadata: { name: node.name, labels: { [zoneLabel]: node.zone } },
    status: {
      addresses: [
        { type: "InternalIP", address: node.ip.v4 },
        { type: "InternalIP", address: node.ip.v6 },
      ],
    },
  };
}

function histogram(text: string, name: string, family: string): { sum: number; count: number } {
  const v = (suffix: string) => Number(new RegExp(`^${name}_${suffix}\\{ip_family="${family}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return { sum: v("sum"), count: v("count") };
}

/** Every url answered every time, and by exactly the endpoints in `want` for its family. */
function expectBalanced(results: Record<string, UrlResult>, n: number, want: { v4: string[]; v6: string[] }): void {
  for (const [u, r] of Object.entries(results)) {
    const fam = u.includes("[") ? want.v6 : want.v4;
    expect({ url: u, ok: r.ok, errors: r.errors }).toEqual({ url: u, ok: n, errors: {} });
    expect({ url: u, endpoints: Object.keys(r.endpoints).sort() }).toEqual({ url: u, endpoints: [...fam].sort() });
  }
}

describe.skipIf(unavailable !== undefined).each(["iptables", "nftables"] as const)("dataplane, --proxy-mode %s", (mode) => {
  const prefix = `${runPrefix}-${mode === "iptables" ? "ipt" : "nft"}`;
  const t: Topology = topologyNames(prefix, 3);
  const n1 = t.nodes[0]!;
  const echo: NetnsProcess[] = [];
  const m: Record<string, number> = {};
  let c: NodeCluster | undefined;
  // A beforeAll that times out keeps running: cleanup aborts the start and waits for it to unwind.
  const aborted = new AbortController();
  let starting: Promise<NodeCluster> | undefined;
  let core: CoreV1Api;
  let ips: { v4: string; v6: string; nodePort: number };
  let baseline = "";
  let chains: string[] = [];
  const fromNode = () => [url(ips.v4, 80), url(ips.v6, 80), url(nodeIP.v4, ips.nodePort), url(nodeIP.v6, ips.nodePort)];

  // A ceiling, not a wait: three nodes' kube-proxies and their first sync took 110-150 s at load ~30.
  beforeAll(async () => {
    try {
      createTopology(t);
      for (const { ns } of t.nodes.flatMap((n) => n.pods)) echo.push(startInNetns(ns, `echo ${ns}`, ["-e", echoServer, "8080"]));
      // A UDP echo in each pod naming the pod by its IPv4 address.
      for (const [i, ns] of t.pods.entries()) echo.push(startInNetns(ns, `udp ${ns}`, ["-e", udpEchoServer, "5353", [pod1, pod2][i]!.v4]));
      await Promise.all(echo.map((e) => e.waitFor(/listening/)));
      starting = startNodeCluster(t, mode, prefix, aborted.signal);
      c = await starting;
      m.startMs = c.startMs;
      core = c.kubeConfig.makeApiClient(CoreV1Api);
      // No kubelet registers the nodes; the EndpointSlice controller skips pods of unknown nodes.
      for (const node of t.nodes) await core.createNode({ body: nodeBody(node) });
      for (const [name, ip, udp] of [
        ["dp-web-1", pod1, "on"],
        ["dp-web-2", pod2, "off"],
      ] as const) {
        await core.createNamespacedPod({ namespace: "default", body: podBody(name, { app: "dp-web", udp }, n1.name) });
        await setPodStatus(core, name, ip, true);
      }
      // kube-proxy's first (full) sync of both families, so that the Service below meets a
      // running proxier and the baseline holds its fixed chains.
      const t0 = performance.now();
      // iptables: the IPv4 rules hold default/kubernetes (with the apiserver's advertised node
      // address as its endpoint, or "has no endpoints"), and the IPv6 ones have their nat table.
      const synced =
        mode === "iptables"
          ? {
              test: (d: string): boolean => {
                const i = d.search(/^# Generated by ip6tables-save/m);
                const [v4, v6] = i < 0 ? [d, ""] : [d.slice(0, i), d.slice(i)];
                return /default\/kubernetes:https/.test(v4) && /^\*nat$/m.test(v6);
              },
            }
          : /table ip kube-proxy[\s\S]*table ip6 kube-proxy/;
      baseline = await until(
        "kube-proxy's first sync",
        async () => {
          const d = await ruleDump(t.node, mode);
          return synced.test(d) ? d : undefined;
        },
        60_000,
      );
      m.firstSyncMs = performance.now() - t0;
    } catch (e) {
      await cleanup();
      throw e;
    }
  }, 300_000);

  async function cleanup(): Promise<void> {
    try {
      aborted.abort();
      await starting?.catch(() => undefined);
      const codes = (await c?.stop()) ?? [];
      for (const e of echo) codes.push(`echo=${await e.stop()}`);
      if (c !== undefined) console.log(`dataplane ${mode}: processes stopped: ${codes.join(" ")}`);
    } finally {
      const errors = deleteTopology(t);
      if (errors.length > 0) console.warn(`dataplane ${mode}: netns cleanup: ${errors.join("; ")}`);
    }
  }

  afterAll(async () => {
    await cleanup();
    expect(namespacesWithPrefix(prefix)).toEqual([]);
    console.log(
      `dataplane ${mode}: ${Object.entries(m)
        .map(([k, v]) => `${k}=${Math.round(v)}`)
        .join(" ")}`,
    );
  }, 60_000);

  it("Service create -> both ClusterIPs and the NodePort reach both pods, from the node and from the client", async () => {
    const created = Date.now();
    const svc = await core.createNamespacedService({
      namespace: "default",
      body: {
        metadata: { name: "dp-web" },
        spec: {
          type: "NodePort",
          ipFamilyPolicy: "RequireDualStack",
          selector: { app: "dp-web" },
          ports: [{ name: "http", port: 80, targetPort: 8080 }],
        },
      },
    });
    const [v4, v6] = svc.spec!.clusterIPs!;
    ips = { v4: v4!, v6: v6!, nodePort: svc.spec!.ports![0]!.nodePort! };
    const [ok4, ok6] = await Promise.all([
      firstSuccess(t.node, url(ips.v4, 80), created + 30_000, nodeIP.v4),
      firstSuccess(t.node, url(ips.v6, 80), created + 30_000, nodeIP.v6),
    ]);
    m.firstOkV4Ms = ok4 - created;
    m.firstOkV6Ms = ok6 - created;
    // The first answer may predate the second pod's endpoint: wait until every url sees both.
    const want = { v4: [pod1.v4, pod2.v4], v6: [pod1.v6, pod2.v6] };
    await until("every backend answers", async () => {
      const r = await sample(t.node, fromNode(), 8);
      return Object.values(r).every((x) => Object.keys(x.endpoints).length === 2) ? true : undefined;
    });
    const t1 = performance.now();
    const [n, cl] = await Promise.all([sample(t.node, fromNode(), N), sample(t.client, fromNode(), N)]);
    m.sampleMs = performance.now() - t1;
    expectBalanced(n, N, want);
    expectBalanced(cl, N, want);
    chains = serviceChains(await ruleDump(t.node, mode), mode, "default/dp-web", baseline);
    expect(chains.length).toBeGreaterThan(0);
    // The latency is observed once the sync that programmed the rules has finished writing them,
    // which can come a moment after the first packets get through: poll for it.
    const metrics = await until("network programming latency observed in both families", async () => {
      const text = await execInNetns(t.node, [
        process.execPath,
        "-e",
        "fetch('http://127.0.0.1:10249/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))",
      ]);
      return ["IPv4", "IPv6"].every((fam) => histogram(text, "kubeproxy_network_programming_duration_seconds", fam).count > 0)
        ? text
        : undefined;
    });
    for (const fam of ["IPv4", "IPv6"]) {
      const h = histogram(metrics, "kubeproxy_network_programming_duration_seconds", fam);
      expect(h.count).toBeGreaterThan(0);
      m[`netProgAvg${fam}Ms`] = (h.sum / h.count) * 1000;
    }
    console.log(`dataplane ${mode}: node ${JSON.stringify(n)}\ndataplane ${mode}: client ${JSON.stringify(cl)}`);
  });

  it("localhost NodePort: accepted in iptables mode (IPv4 only), not in nftables mode", async () => {
    const r = await sample(t.node, [url("127.0.0.1", ips.nodePort)], 4, 1000);
    const got = r[url("127.0.0.1", ips.nodePort)]!;
    if (mode === "iptables") expect(got.ok).toBe(4);
    else expect(got.ok).toBe(0);
  });

  // Issue #33's UDP case: without kube-proxy's conntrack reconciler the client's flow (same
  // source port, so one conntrack entry) would keep its DNAT to the old endpoint.
  it("a UDP flow moves to the new endpoint when the old one leaves the Service (stale conntrack entries deleted)", async () => {
    const svc = await core.createNamespacedService({
      namespace: "default",
      body: {
        metadata: { name: "dp-udp" },
        spec: { selector: { app: "dp-web", udp: "on" }, ports: [{ name: "dns", port: 53, protocol: "UDP", targetPort: 5353 }] },
      },
    });
    const clusterIP = svc.spec!.clusterIP!;
    const flow = async (want: string) =>
      JSON.parse(
        await runScriptInNetns(
          t.client,
          udpClient,
          JSON.stringify({ host: clusterIP, port: 53, sourcePort: 40053, want, deadlineMs: Date.now() + 30_000, timeoutMs: 300 }),
        ),
      ) as { okAt: number | null; answers: Record<string, number>; silent: number };
    const first = await flow(pod1.v4);
    expect(first.okAt, JSON.stringify(first)).not.toBeNull();
    const t0 = Date.now();
    for (const [name, udp] of [
      ["dp-web-1", "off"],
      ["dp-web-2", "on"],
    ] as const) {
      const pod = await core.readNamespacedPod({ name, namespace: "default" });
      pod.metadata!.labels = { ...pod.metadata!.labels, udp };
      await core.replaceNamespacedPod({ name, namespace: "default", body: pod });
    }
    const moved = await flow(pod2.v4);
    expect(moved.okAt, JSON.stringify(moved)).not.toBeNull();
    m.udpMovedMs = moved.okAt! - t0;
    const text = await execInNetns(t.node, [
      process.execPath,
      "-e",
      "fetch('http://127.0.0.1:10249/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))",
    ]);
    const deleted = Number(/^kubeproxy_conntrack_reconciler_deleted_entries_total\{ip_family="IPv4"\} (\S+)$/m.exec(text)?.[1] ?? 0);
    expect(deleted).toBeGreaterThanOrEqual(1);
    console.log(
      `dataplane ${mode}: udp flow ${JSON.stringify(first.answers)} then ${JSON.stringify(moved.answers)}, conntrack entries deleted ${deleted}`,
    );
    await core.deleteNamespacedService({ name: "dp-udp", namespace: "default" });
  });

  it("one pod deleted -> all traffic goes to the other", async () => {
    const t0 = performance.now();
    // No kubelet runs here to finish a graceful deletion: remove the scheduled Pod at once, as
    // `kubectl delete --grace-period=0 --force` does (else it stays Terminating for 30 s).
    await core.deleteNamespacedPod({ name: "dp-web-1", namespace: "default", gracePeriodSeconds: 0 });
    await until("dp-web-1 gone from the dataplane", async () => {
      const r = await sample(t.node, fromNode(), 4);
      return Object.values(r).every((x) => x.ok === 4 && x.endpoints[pod1.v4] === undefined && x.endpoints[pod1.v6] === undefined)
        ? true
        : undefined;
    });
    m.oneBackendMs = performance.now() - t0;
    const [n, cl] = await Promise.all([sample(t.node, fromNode(), 6), sample(t.client, fromNode(), 6)]);
    expectBalanced(n, 6, { v4: [pod2.v4], v6: [pod2.v6] });
    expectBalanced(cl, 6, { v4: [pod2.v4], v6: [pod2.v6] });
  });

  // Observed here: an IPv6 REJECT fails the connect only at the SYN retransmitted after 1 s (the
  // first SYN's ICMPv6 error does not), from the node and the client alike: allow 3 s.
  it("zero ready pods -> connections to both ClusterIPs and the NodePort are refused", async () => {
    const t0 = performance.now();
    await setPodStatus(core, "dp-web-2", pod2, false);
    const refused = (r: Record<string, UrlResult>) => Object.values(r).every((x) => x.ok === 0 && x.errors.ECONNREFUSED === 2);
    const n = await until("refused from the node", async () => {
      const r = await sample(t.node, fromNode(), 2, 3000);
      if (!refused(r)) throw new Error(JSON.stringify(r));
      return r;
    });
    m.refusedMs = performance.now() - t0;
    const cl = await sample(t.client, fromNode(), 2, 3000);
    expect({ node: n, client: refused(cl) ? "all refused" : cl }).toEqual({ node: n, client: "all refused" });
    const slowest = (r: Record<string, UrlResult>, v6: boolean) =>
      Math.max(
        ...Object.entries(r)
          .filter(([u]) => u.includes("[") === v6)
          .map(([, x]) => x.maxMs),
      );
    Object.assign(m, {
      refusedNodeV4MaxMs: slowest(n, false),
      refusedNodeV6MaxMs: slowest(n, true),
      refusedClientV4MaxMs: slowest(cl, false),
      refusedClientV6MaxMs: slowest(cl, true),
    });
  });

  it("Service delete -> its chains and ClusterIPs leave the kernel's rules", async () => {
    const before = await ruleDump(t.node, mode);
    expect(before).toContain("default/dp-web");
    expect(before).toContain(ips.v4);
    expect(before).toContain(ips.v6);
    const t0 = performance.now();
    await core.deleteNamespacedService({ name: "dp-web", namespace: "default" });
    const after = await until(
      "service rules removed",
      async () => {
        const d = await ruleDump(t.node, mode);
        const left = [
          ...chains.filter((ch) => d.includes(ch)),
          ...[ips.v4, ips.v6].filter((ip) => d.includes(ip)),
          ...(d.includes("dp-web") ? ["dp-web"] : []),
        ];
        return left.length === 0 ? d : undefined;
      },
      30_000,
    );
    m.rulesRemovedMs = performance.now() - t0;
    expect(after).toContain(mode === "iptables" ? "KUBE-SERVICES" : "table ip6 kube-proxy");
  });

  // Issue 33: a pod per zone behind a PreferClose Service. The EndpointSlice controller hints each
  // endpoint for its own zone, each node's kube-proxy keeps only its zone's endpoints
  // (CategorizeEndpoints), so every flow from a node reaches the pod in that node's zone, in both
  // families. The Local-policy LoadBalancer's health check answers per node by its local endpoints.
  it("PreferClose keeps each node's flows in its zone; an ETP=Local healthCheckNodePort answers 200 on nodes with endpoints, 503 elsewhere", async () => {
    // One pod per node (n1's is pod1); the Local Service selects those on n1 and n2 only.
    const zonePods = t.nodes.map((node, i) => ({ node, ip: node.pods[0]!.ip, local: i < 2 ? "yes" : "no" }));
    for (const { node, ip, local } of zonePods) {
      const name = `dp-${node.zone}`;
      await core.createNamespacedPod({ namespace: "default", body: podBody(name, { app: "dp-zoned", local }, node.name) });
      await setPodStatus(core, name, ip, true);
    }
    const service = (name: string, spec: V1ServiceSpec) =>
      core.createNamespacedService({
        namespace: "default",
        body: {
          metadata: { name },
          spec: { ipFamilyPolicy: "RequireDualStack", ports: [{ name: "http", port: 80, targetPort: 8080 }], ...spec },
        },
      });
    const zoned = await service("dp-zoned", { trafficDistribution: "PreferClose", selector: { app: "dp-zoned" } });
    const local = await service("dp-local", {
      type: "LoadBalancer",
      externalTrafficPolicy: "Local",
      selector: { app: "dp-zoned", local: "yes" },
    });
    const targets = zoned.spec!.clusterIPs!.map((ip) => url(ip, 80));
    const seen = (r: Record<string, UrlResult>) => targets.map((u) => ({ url: u, ok: r[u]!.ok, endpoints: Object.keys(r[u]!.endpoints) }));
    const want = (ip: { v4: string; v6: string }, n: number) =>
      targets.map((u) => ({ url: u, ok: n, endpoints: [u.includes("[") ? ip.v6 : ip.v4] }));
    const t0 = performance.now();
    // Until the hints reach a node's kube-proxy every endpoint is programmed there: wait for in-zone only.
    await Promise.all(
      zonePods.map(({ node, ip }) =>
        until(
          `in-zone only from ${node.name}`,
          async () => {
            const got = seen(await sample(node.ns, targets, 4));
            if (JSON.stringify(got) !== JSON.stringify(want(ip, 4))) throw new Error(JSON.stringify(got));
            return true;
          },
          60_000,
        ),
      ),
    );
    m.hintsProgrammedMs = performance.now() - t0;
    const flows = await Promise.all(zonePods.map(({ node }) => sample(node.ns, targets, N)));
    expect(flows.map(seen)).toEqual(zonePods.map(({ ip }) => want(ip, N)));
    console.log(
      `dataplane ${mode}: PreferClose flows per node ${JSON.stringify(Object.fromEntries(flows.map((f, i) => [t.nodes[i]!.name, f])))}`,
    );
    // Every node IP's health check port in one client process: status and body, or the error code.
    const hcURLs = t.nodes.flatMap((n) => [n.ip.v4, n.ip.v6].map((ip) => url(ip, local.spec!.healthCheckNodePort!)));
    const health = async () =>
      JSON.parse(
        await execInNetns(t.client, [
          process.execPath,
          "-e",
          `Promise.all(${JSON.stringify(hcURLs)}.map((u) => fetch(u).then(async (r) => ({ status: r.status, body: await r.json() }), (e) => ({ error: e.cause?.code ?? String(e) })))).then((r) => process.stdout.write(JSON.stringify(r)))`,
        ]),
      ) as unknown[];
    const body = (n: number) => ({ service: { namespace: "default", name: "dp-local" }, localEndpoints: n, serviceProxyHealthy: true });
    const wantHealth = zonePods.flatMap(({ local }) =>
      Array<unknown>(2).fill(local === "yes" ? { status: 200, body: body(1) } : { status: 503, body: body(0) }),
    );
    const hc = await until("health check servers answer as the endpoints are", async () => {
      const got = await health();
      // Thrown, not undefined, so that a timeout names what the ports last answered.
      if (JSON.stringify(got) !== JSON.stringify(wantHealth)) throw new Error(JSON.stringify(got));
      return got;
    });
    expect(hc).toEqual(wantHealth);
  });
});
