/**
 * The packet tracer against the kernel: the kube-proxy library's proxiers render the rules of a
 * few Services for a node namespace, the rules are loaded with iptables-restore / nft exactly as
 * kube-proxy loads them, real connections are made from the client namespace, the node and a pod,
 * and every real outcome (the endpoint that answered and whether the source was rewritten, or the
 * refusal / timeout) must be one the tracer predicted from the same rule text; the split between
 * two endpoints must match the tracer's 50 % within binomial bounds. Both proxy modes, both
 * families. No apiserver: the rules are the subject, not how they are fed.
 */
import { randomBytes } from "node:crypto";
import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import {
  IptablesApplier,
  NftablesApplier,
  loadNodeRules,
  newDualStackIptablesProxier,
  newDualStackNftablesProxier,
  type Provider,
  type TraceOutcome,
} from "@servicenet/kube-proxy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInNetns, type NetnsProcess } from "../framework/netns-process.ts";
import {
  clientIP,
  createTopology,
  dataplaneUnavailableReason,
  deleteTopology,
  namespacesWithPrefix,
  nodeIP,
  pod1,
  pod2,
  sh,
  topologyNames,
} from "./netns.ts";
import { echoServer } from "./scripts.ts";
import { sample, url, type UrlResult } from "./traffic.ts";

const unavailable = dataplaneUnavailableReason();
if (unavailable !== undefined) console.warn(`trace agreement e2e skipped: ${unavailable}`);
const runPrefix = `sn-tr-${randomBytes(3).toString("hex")}`;
const node = "tr-node";
const cidr = { IPv4: "10.244.0.0/16", IPv6: "fd00:10:244::/56" } as const;
const fam = (f: IPFamily) => (f === "IPv4" ? "v4" : "v6");

/** A NodePort Service `name` with ClusterIPs 10.96.0.<n> / fd00:10:96::<n> and NodePort 30000+n. */
function service(name: string, n: number, extra: Partial<NonNullable<Service["spec"]>> = {}): Service {
  return {
    metadata: { namespace: "default", name },
    spec: {
      type: "NodePort",
      clusterIP: `10.96.0.${n}`,
      clusterIPs: [`10.96.0.${n}`, `fd00:10:96::${n}`],
      ipFamilies: ["IPv4", "IPv6"],
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080, nodePort: 30000 + n }],
      ...extra,
    },
  };
}

/** The slices of `name`: each pod on `nodeName` (this node, or another one). */
function slices(name: string, eps: { ip: { v4: string; v6: string }; nodeName: string }[]): EndpointSlice[] {
  return (["IPv4", "IPv6"] as const).map((f) => ({
    metadata: { namespace: "default", name: `${name}-${fam(f)}`, labels: { "kubernetes.io/service-name": name } },
    addressType: f,
    endpoints: eps.map((e) => ({
      addresses: [e.ip[fam(f)]],
      nodeName: e.nodeName,
      conditions: { ready: true, serving: true, terminating: false },
    })),
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  }));
}

const services = [
  service("web", 10),
  // externalTrafficPolicy=Local with its endpoint here: no masquerade, the client address is kept.
  service("local", 11, { externalTrafficPolicy: "Local" }),
  // externalTrafficPolicy=Local with its only endpoint "on another node": dropped from outside.
  service("remote", 12, { externalTrafficPolicy: "Local" }),
  service("empty", 13),
];
const allSlices = [
  ...slices("web", [
    { ip: pod1, nodeName: node },
    { ip: pod2, nodeName: node },
  ]),
  ...slices("local", [{ ip: pod1, nodeName: node }]),
  ...slices("remote", [{ ip: pod2, nodeName: "elsewhere" }]),
];

/** What one real connection did, in the tracer's terms. */
function realOutcome(pair: string | undefined, error: string | undefined, source: string): string {
  if (error === "ECONNREFUSED") return "reject";
  if (error === "TIMEOUT") return "drop";
  if (error !== undefined) return `error ${error}`;
  const [endpoint = "", client = ""] = (pair ?? "").split(" ");
  return `${endpoint} masq=${String(client !== source)}`;
}

function predicted(o: TraceOutcome): string {
  if (o.verdict !== "accept") return o.verdict;
  const ip = (o.dnat ?? "").replace(/^\[?([^\]]+?)\]?:\d+$/, "$1");
  return `${ip} masq=${String(o.masquerade)}`;
}

interface Flow {
  readonly name: string;
  readonly from: "client" | "node" | "pod1" | "pod2";
  readonly family: IPFamily;
  readonly dst: string;
  readonly port: number;
  readonly n: number;
}

const flows: Flow[] = (["IPv4", "IPv6"] as const).flatMap((f) => {
  const svcIP = (n: number) => (f === "IPv4" ? `10.96.0.${n}` : `fd00:10:96::${n}`);
  const nip = nodeIP[fam(f)];
  return [
    { name: `client -> ClusterIP web (${f})`, from: "client", family: f, dst: svcIP(10), port: 80, n: 200 },
    { name: `node -> ClusterIP web (${f})`, from: "node", family: f, dst: svcIP(10), port: 80, n: 40 },
    { name: `client -> NodePort web (${f})`, from: "client", family: f, dst: nip, port: 30010, n: 40 },
    { name: `client -> NodePort local, ETP=Local (${f})`, from: "client", family: f, dst: nip, port: 30011, n: 10 },
    { name: `pod2 -> ClusterIP local (${f})`, from: "pod2", family: f, dst: svcIP(11), port: 80, n: 10 },
    { name: `pod1 -> ClusterIP local, hairpin to itself (${f})`, from: "pod1", family: f, dst: svcIP(11), port: 80, n: 10 },
    { name: `client -> NodePort remote, ETP=Local without local endpoints (${f})`, from: "client", family: f, dst: nip, port: 30012, n: 2 },
    { name: `pod1 -> ClusterIP empty (${f})`, from: "pod1", family: f, dst: svcIP(13), port: 80, n: 5 },
  ] satisfies Flow[];
});

describe.skipIf(unavailable !== undefined).each(["iptables", "nftables"] as const)("tracer vs kernel, --proxy-mode %s", (mode) => {
  const prefix = `${runPrefix}-${mode === "iptables" ? "ipt" : "nft"}`;
  const t = topologyNames(prefix);
  const echo: NetnsProcess[] = [];
  const texts: Record<IPFamily, string> = { IPv4: "", IPv6: "" };

  beforeAll(async () => {
    createTopology(t);
    // What a CNI plugin does for kubelet's hairpin mode: a pod may reach itself through a Service.
    for (const port of ["vp1", "vp2"]) sh(["ip", "-n", t.node, "link", "set", port, "type", "bridge_slave", "hairpin", "on"]);
    // The node routes the Service CIDR onto br0, the pods' own link, so it answers a pod's first
    // packet to an unanswered ClusterIP with an IPv6 redirect ("on-link"), and the pod would then
    // look for the ClusterIP by neighbour discovery instead of sending to the node: a property of
    // this test topology, not of the rules. Pods here ignore redirects.
    for (const pod of t.pods)
      sh([
        "ip",
        "netns",
        "exec",
        pod,
        "sysctl",
        "-q",
        "-w",
        "net.ipv6.conf.all.accept_redirects=0",
        "net.ipv6.conf.eth0.accept_redirects=0",
      ]);
    for (const ns of t.pods) echo.push(startInNetns(ns, `echo ${ns}`, ["-e", echoServer, "8080"]));
    await Promise.all(echo.map((e) => e.waitFor(/listening/)));
    const opts = (f: IPFamily) => ({ nodeName: node, clusterCIDR: cidr[f], nodeIPs: [nodeIP[fam(f)]] });
    const feed = (meta: Provider) => {
      for (const s of services) meta.onServiceAdd(s);
      for (const s of allSlices) meta.onEndpointSliceAdd(s);
      meta.onServiceSynced();
      meta.onEndpointSlicesSynced();
    };
    // Rendered by kube-proxy's proxiers and applied as kube-proxy applies them: jump rules +
    // iptables-restore --noflush, or nft -f.
    if (mode === "iptables") {
      const pair = newDualStackIptablesProxier({ ipv4: opts("IPv4"), ipv6: opts("IPv6") });
      feed(pair.meta);
      for (const [f, p] of [["IPv4", pair.ipv4] as const, ["IPv6", pair.ipv6] as const]) {
        const r = p.syncProxyRules();
        if (r === null) throw new Error("proxier not initialized");
        texts[f] = r.data;
        await new IptablesApplier({ netns: t.node, localhostNodePorts: f === "IPv4" }).apply(r);
      }
    } else {
      const pair = newDualStackNftablesProxier({
        ipv4: { ...opts("IPv4"), serviceCIDRs: ["10.96.0.0/16"] },
        ipv6: { ...opts("IPv6"), serviceCIDRs: ["fd00:10:96::/112"] },
      });
      feed(pair.meta);
      for (const [f, p] of [["IPv4", pair.ipv4] as const, ["IPv6", pair.ipv6] as const]) {
        const r = p.syncProxyRules();
        if (r === null) throw new Error("proxier not initialized");
        texts[f] = r.data;
        await new NftablesApplier({ netns: t.node }).apply(r);
      }
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(echo.map((e) => e.stop()));
    deleteTopology(t);
    expect(namespacesWithPrefix(prefix)).toEqual([]);
  }, 60_000);

  it.each(flows)("$name: every real outcome is a predicted one, the split within bounds", async (flow) => {
    const rules = loadNodeRules(mode, [texts[flow.family]], mode === "iptables" && flow.family === "IPv4");
    const ns = { client: t.client, node: t.node, pod1: t.pods[0], pod2: t.pods[1] }[flow.from];
    // Sources as the kernel picks them: the client's and pod1's own addresses, the node's bound to its node IP.
    const f = fam(flow.family);
    const source = { client: clientIP[f], node: nodeIP[f], pod1: pod1[f], pod2: pod2[f] }[flow.from];
    const trace = rules.trace(
      { source, destination: flow.dst, protocol: "tcp", port: flow.port, origin: flow.from === "node" ? "output" : "prerouting" },
      [nodeIP.v4, nodeIP.v6, "10.244.0.1", "fd00:10:244::1"],
    );
    const want = new Map(trace.outcomes.map((o) => [predicted(o), o.probability]));
    const real = await sampleOutcomes(ns, flow, source);
    const unpredicted = [...real.keys()].filter((k) => !want.has(k));
    expect({ flow: flow.name, unpredicted, predicted: [...want.keys()] }).toEqual({
      flow: flow.name,
      unpredicted: [],
      predicted: [...want.keys()],
    });
    // Each predicted branch's count within 5 standard deviations of n * p (binomial).
    if (want.size > 1) {
      for (const [k, p] of want) {
        const got = real.get(k) ?? 0;
        const sd = Math.sqrt(flow.n * p * (1 - p));
        expect(Math.abs(got - flow.n * p), `${k}: ${got} of ${flow.n}, predicted p=${p}`).toBeLessThanOrEqual(5 * sd);
      }
    }
  });
});

/** n new connections of `flow` from `ns`, counted by real outcome. */
async function sampleOutcomes(ns: string, flow: Flow, source: string): Promise<Map<string, number>> {
  const u = url(flow.dst, flow.port);
  // A dropped SYN only ever times out; a refused IPv6 one may answer only after one SYN
  // retransmission (~1 s), so a drop is a 3 s silence.
  const r: UrlResult | undefined = (await sample(ns, [u], flow.n, 3000, flow.from === "node" ? source : undefined))[u];
  const out = new Map<string, number>();
  const add = (k: string, c: number) => out.set(k, (out.get(k) ?? 0) + c);
  for (const [pair, count] of Object.entries(r?.pairs ?? {})) add(realOutcome(pair, undefined, source), count);
  for (const [code, count] of Object.entries(r?.errors ?? {})) add(realOutcome(undefined, code, source), count);
  return out;
}
