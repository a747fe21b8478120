/**
 * `servicenet trace` end to end, in-process: main() and the plugin entry against the fake
 * apiserver holding a two-node dual-stack cluster, in both proxy modes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceNodes, tracePods, traceServiceCIDRs, traceServices, traceSlices } from "../../testing/fixtures/trace.ts";
import { pluginMain } from "../kubectl-servicenet.ts";
import { main } from "../kubectl.ts";
import { servicenetHelp, traceHelp } from "./trace-help.ts";

let api: FakeAPIServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  api = await startFakeAPIServer({ objects: [...traceNodes, ...tracePods, ...traceServices, ...traceSlices, ...traceServiceCIDRs] });
  dir = mkdtempSync(join(tmpdir(), "servicenet-trace-"));
  kubeconfig = join(dir, "config");
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${api.url}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n`,
  );
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[], entry: typeof main = main) {
  let stdout = "";
  let stderr = "";
  const code = await entry(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { KUBECONFIG: kubeconfig },
  });
  return { code, stdout, stderr };
}

interface JSONTrace {
  node: string;
  ipFamily: string;
  source: { ip: string };
  outcomes: {
    steps: { cause: { kind: string; name: string; detail: string } }[];
    probability: number;
    verdict: string;
    dnat?: string;
    masquerade: boolean;
    explanation: { summary: string; endpoint?: { pod?: string; slice: string }; masquerade?: string };
  }[];
}

async function traceJSON(argv: string[]): Promise<JSONTrace> {
  const r = await run(["trace", ...argv, "-o", "json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as JSONTrace;
}

describe.each(["iptables", "nftables"])("servicenet trace --proxy-mode=%s", (mode) => {
  it("pod to a Service port: both endpoints at 50 %, from the EndpointSlice, not masqueraded", async () => {
    const t = await traceJSON(["pod/client", "svc/web:http", `--proxy-mode=${mode}`, "--cluster-cidr=10.244.0.0/16,fd00:10:244::/56"]);
    expect(t.node).toBe("node-a");
    expect(t.source.ip).toBe("10.244.1.5");
    expect(t.outcomes.map((o) => [o.dnat, o.probability, o.masquerade, o.explanation.endpoint?.pod])).toEqual([
      ["10.244.1.7:8080", 0.5, false, "default/web-0"],
      ["10.244.2.7:8080", 0.5, false, "default/web-1"],
    ]);
  });

  it("the IPv6 ClusterIP given as [IP]:PORT traces the IPv6 rules", async () => {
    const t = await traceJSON(["pod/client", "[fd00:10:96::a]:80", `--proxy-mode=${mode}`]);
    expect(t.ipFamily).toBe("IPv6");
    expect(t.outcomes.map((o) => o.dnat)).toEqual(["[fd00:10:244:1::7]:8080", "[fd00:10:244:2::7]:8080"]);
  });

  it("an outside client on a node without local endpoints of an externalTrafficPolicy=Local NodePort is dropped, in words", async () => {
    const t = await traceJSON(["203.0.113.7", "192.168.0.2:30081", "--node=node-a", `--proxy-mode=${mode}`]);
    expect(t.outcomes).toHaveLength(1);
    expect(t.outcomes[0]?.verdict).toBe("drop");
    expect(t.outcomes[0]?.explanation.summary).toBe(
      "DROP: no local endpoints for externalTrafficPolicy=Local (node node-a runs none of the endpoints of Service default/local)",
    );
  });

  it("the same client through node-b reaches the local endpoint without masquerade (the client address is kept)", async () => {
    const t = await traceJSON(["203.0.113.7", "198.51.100.10:80", "--node=node-b", `--proxy-mode=${mode}`]);
    expect(t.outcomes.map((o) => [o.verdict, o.dnat, o.masquerade])).toEqual([["accept", "10.244.2.7:8080", false]]);
  });

  it("a NodePort with externalTrafficPolicy=Cluster from outside is masqueraded, and says why", async () => {
    const t = await traceJSON(["203.0.113.7", "192.168.0.2:30080", "--node=node-a", `--proxy-mode=${mode}`]);
    expect(t.outcomes.every((o) => o.masquerade)).toBe(true);
    expect(t.outcomes[0]?.explanation.masquerade).toBe(
      "externalTrafficPolicy=Cluster: external traffic may go to another node, so replies must return through this one",
    );
  });

  it("a pod on a node without local endpoints of an internalTrafficPolicy=Local Service is dropped, in words", async () => {
    const t = await traceJSON(["pod/client", "svc/internal", `--proxy-mode=${mode}`]);
    expect(t.outcomes.map((o) => o.explanation.summary)).toEqual([
      "DROP: no local endpoints for internalTrafficPolicy=Local (node node-a runs none of the endpoints of Service default/internal)",
    ]);
  });

  it("links each step to its Service, EndpointSlice or flag (-o json)", async () => {
    const causes = async (argv: string[]) =>
      (await traceJSON([...argv, `--proxy-mode=${mode}`])).outcomes.map((o) =>
        o.steps.map((s) => s.cause).filter((c) => c.kind !== "Flag" || !c.name.startsWith("--proxy-mode")),
      );
    expect((await causes(["pod/client", "svc/internal"]))[0]?.at(-1)).toEqual({
      kind: "Service",
      name: "default/internal",
      detail: "internalTrafficPolicy=Local, no endpoint on this node",
    });
    const etp = await causes(["203.0.113.7", "192.168.0.2:30081", "--node=node-a"]);
    // Base chains (KUBE-FIREWALL, nftables' firewall-check and service-endpoints-check) are kube-proxy's own, not the Service's.
    expect(etp[0]?.filter((c) => c.detail.startsWith("loadBalancerSourceRanges"))).toEqual([]);
    expect(etp[0]?.at(-1)).toEqual({
      kind: "Service",
      name: "default/local",
      detail: "externalTrafficPolicy=Local, no endpoint on this node",
    });
    const web = await causes(["node/node-a", "svc/web:http", "--cluster-cidr=10.244.0.0/16"]);
    expect(web[1]).toContainEqual({ kind: "Flag", name: "--cluster-cidr=10.244.0.0/16", detail: "source 192.168.0.2 is outside it" });
    expect(web[1]).toContainEqual({ kind: "EndpointSlice", name: "default/web-ipv4", detail: "endpoint 10.244.2.7 ready on node-b" });
    expect(web[1]).toContainEqual({ kind: "Service", name: "default/web", detail: "clusterIP 10.96.0.10 port 80/TCP" });
  });

  it("a Service without endpoints rejects", async () => {
    const t = await traceJSON(["pod/client", "svc/empty", `--proxy-mode=${mode}`]);
    expect(t.outcomes.map((o) => o.explanation.summary)).toEqual([
      "REJECT: Service default/empty has no endpoints for port http (no ready or serving endpoint in its EndpointSlices)",
    ]);
  });
});

describe("servicenet trace output and help", () => {
  it("prints the walk: every rule with its comment, the endpoint choice with its probability, and the verdict", async () => {
    const r = await run(["trace", "pod/client", "svc/web:http", "--cluster-cidr=10.244.0.0/16"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("Destination:  10.96.0.10:80/TCP = Service default/web port http (ClusterIP)\n");
    expect(r.stdout).toContain(
      "  [1] 50.0%  delivered to 10.244.1.7:8080\n      endpoint: pod default/web-0 on node node-a (EndpointSlice default/web-ipv4, ready)\n",
    );
    expect(r.stdout).toMatch(
      /PREROUTING nat\/KUBE-SERVICES +jump KUBE-SVC-\w+  # default\/web:http cluster IP  \(service default\/web: clusterIP 10\.96\.0\.10 port 80\/TCP\)\n/,
    );
    expect(r.stdout).toMatch(
      /PREROUTING nat\/KUBE-SVC-\w+ +jump KUBE-SEP-\w+ \[50\.0%\]  # default\/web:http -> 10\.244\.1\.7:8080  \(endpointslice default\/web-ipv4: endpoint 10\.244\.1\.7 ready on node-a\)\n/,
    );
    expect(r.stdout).toMatch(
      /PREROUTING nat\/PREROUTING +jump KUBE-SERVICES  # kubernetes service portals  \(flag --proxy-mode=iptables: base rules\)\n/,
    );
    expect(r.stdout).toContain(
      "\nVerdict: delivered to one of 2 endpoints (10.244.1.7:8080 50.0%, 10.244.2.7:8080 50.0%), not masqueraded\n",
    );
  });

  it("--help reads as kubectl's own command help; the plugin entry serves it too", async () => {
    expect(await run(["trace", "--help"])).toEqual({ code: 0, stdout: traceHelp, stderr: "" });
    expect(await run(["trace", "--help"], pluginMain)).toEqual({ code: 0, stdout: traceHelp, stderr: "" });
    expect(await run(["--help"], pluginMain)).toEqual({ code: 0, stdout: servicenetHelp, stderr: "" });
    expect((await run(["get", "pods"], pluginMain)).stderr).toContain('error: unknown command "get" for "kubectl servicenet"');
  });

  it("explains what it cannot resolve", async () => {
    expect((await run(["trace", "203.0.113.7", "svc/web"])).stderr).toBe("error: --node is required when SOURCE is an IP address\n");
    expect((await run(["trace", "pod/client", "svc/nope"])).stderr).toBe('Error from server (NotFound): services "nope" not found\n');
    expect((await run(["trace", "pod/client", "svc/web", "--proxy-mode=ipvs"])).stderr).toBe(
      'error: --proxy-mode must be iptables or nftables, not "ipvs"\n',
    );
  });
});
