/**
 * The dataplane page of `kubectl servicenet serve` in headless Chromium: the plugin's bin serves it
 * against the fake apiserver holding three nodes in three zones; the page shows per node each
 * Service's endpoints after hints and traffic policies, the trace form is filled and submitted in
 * the browser and the rendered result is read back. A hostile hint value stays text. A screenshot
 * of a traced page stays in the test's output directory (path printed).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binOf } from "../framework/bins.ts";
import { findChromium, screenshotURL } from "../framework/chromium.ts";
import { openPage, type BrowserPage } from "../framework/chromium-session.ts";
import { tempDir } from "../framework/processes.ts";

const chromium = findChromium();
if (chromium === undefined) console.warn("dataplane-page: no chromium (apt-get install chromium), skipping");

const hostile = `<img src=x onerror="document.title='owned'">`;
const zones = ["zone-a", "zone-b", "zone-c"];
const node = (i: number) => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: `node-${i}`, labels: { "topology.kubernetes.io/zone": zones[i] } },
  spec: { podCIDRs: [`10.244.${i}.0/24`] },
  status: { addresses: [{ type: "InternalIP", address: `192.168.0.${10 + i}` }] },
});
const service = (name: string, extra: Record<string, unknown>, ip: string) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "default", name },
  spec: {
    type: "ClusterIP",
    clusterIP: ip,
    clusterIPs: [ip],
    ipFamilies: ["IPv4"],
    ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
    ...extra,
  },
});
const endpoint = (i: number, hint: string) => ({
  addresses: [`10.244.${i}.7`],
  nodeName: `node-${i}`,
  zone: zones[i],
  conditions: { ready: true, serving: true, terminating: false },
  targetRef: { kind: "Pod", namespace: "default", name: `web-${i}` },
  hints: { forZones: [{ name: hint }] },
});
const objects = [
  node(0),
  node(1),
  node(2),
  {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { namespace: "default", name: "client" },
    spec: { nodeName: "node-1", containers: [{ name: "c", image: "pause" }] },
    status: { phase: "Running", podIP: "10.244.1.5", podIPs: [{ ip: "10.244.1.5" }] },
  },
  service("web", { trafficDistribution: "PreferClose" }, "10.96.0.10"),
  {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { namespace: "default", name: "web-abc12", labels: { "kubernetes.io/service-name": "web" } },
    addressType: "IPv4",
    endpoints: [endpoint(0, "zone-a"), endpoint(1, "zone-b"), endpoint(2, "zone-c")],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  },
  service("odd", {}, "10.96.0.20"),
  {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { namespace: "default", name: "odd-1", labels: { "kubernetes.io/service-name": "odd" } },
    addressType: "IPv4",
    endpoints: [endpoint(2, hostile)],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  },
];

/** The rows of the ports table: service, then what ClusterIP traffic reaches. */
const portsTable = `[...document.querySelectorAll("table.ports tbody tr")].map((r) => [r.dataset.service, r.cells[5].innerText])`;

describe.skipIf(chromium === undefined)("kubectl servicenet serve: the dataplane page in Chromium", () => {
  let api: FakeAPIServer;
  let serve: ChildProcess;
  let url = "";
  let page: BrowserPage | undefined;
  const out = tempDir("dataplane-page");

  beforeAll(async () => {
    api = await startFakeAPIServer({ objects });
    const kubeconfig = path.join(out, "config");
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${api.url}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n`,
    );
    serve = spawn(process.execPath, [binOf("@servicenet/kubectl", "kubectl-servicenet"), "serve", "--port=0"], {
      env: { ...process.env, KUBECONFIG: kubeconfig },
      stdio: ["ignore", "pipe", "inherit"],
    });
    url = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      serve.stdout?.on("data", (d: Buffer) => {
        stdout += d.toString();
        const m = /^Starting to serve on (\S+)\n/.exec(stdout);
        if (m !== null) resolve(`http://${m[1] ?? ""}/`);
      });
      serve.once("exit", (code) => reject(new Error(`kubectl-servicenet serve exited with ${String(code)}: ${stdout}`)));
    });
  });
  afterAll(async () => {
    await page?.close();
    serve.kill("SIGTERM");
    await api.stop();
  });

  it("shows each node's endpoints after zone hints, and a hostile hint as text", async () => {
    page = await openPage(chromium ?? "", `${url}?node=node-1`);
    expect(await page.evaluate<string>("document.querySelector('h2').innerText")).toBe("Node node-1 (zone zone-b)");
    expect(await page.evaluate<string[][]>(portsTable)).toEqual([
      ["default/web:http", "10.244.1.7:8080 (local)"],
      ["default/odd:http", "10.244.2.7:8080"],
    ]);
    expect(await page.evaluate<number>("document.querySelectorAll('img').length")).toBe(0);
    expect(await page.evaluate<string>("document.title")).toBe("servicenet dataplane: node-1");
    expect(await page.evaluate<string>(portsTable.replace("r.cells[5]", "r.cells[4]"))).toContainEqual([
      "default/odd:http",
      `10.244.2.7:8080 [hints: zone ${hostile}]`,
    ]);
  });

  it("traces a flow submitted through the form: the walk, the in-zone endpoint and the verdict", async () => {
    const p = page ?? (await openPage(chromium ?? "", `${url}?node=node-1`));
    await p.navigation(() =>
      p.evaluate(`(() => {
        const f = document.getElementById("trace-form");
        f.elements.source.value = "pod/client";
        f.elements.destination.value = "svc/web:http";
        f.elements.proxyMode.value = "nftables";
        f.requestSubmit();
        return true;
      })()`),
    );
    const result = await p.evaluate<{ verdict: string; outcomes: string[]; chains: string[] }>(`({
      verdict: document.querySelector("#trace-result .verdict").innerText,
      outcomes: [...document.querySelectorAll("#trace-result .outcome h3")].map((h) => h.innerText),
      chains: [...document.querySelectorAll("#trace-result table.walk tbody tr")].map((r) => r.cells[1].innerText),
    })`);
    expect(result.verdict).toBe("delivered to 10.244.1.7:8080, not masqueraded");
    expect(result.outcomes).toEqual(["[1] 100.0% delivered to 10.244.1.7:8080"]);
    expect(result.chains).toContain("ip kube-proxy/services");
    expect(result.chains.some((c) => c.startsWith("ip kube-proxy/endpoint-"))).toBe(true);
    const shot = path.join(out, "dataplane-page.png");
    await screenshotURL(
      chromium ?? "",
      `${url}?node=node-1&source=pod%2Fclient&destination=svc%2Fweb%3Ahttp&namespace=default&proxyMode=iptables`,
      shot,
    );
    console.log(`dataplane page screenshot: ${shot}`);
  });
});
