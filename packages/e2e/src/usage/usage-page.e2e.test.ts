/**
 * A picture of each Service range. A real cluster (`npm start`: apiserver,
 * controller-manager, kube-proxy) with the default /16 and /112 ranges, a /64 and a /24 ServiceCIDR,
 * and a ServiceCIDR being deleted (its finalizer holds it while a Service keeps an address in it).
 * Both views, `servicenet-kubectl usage servicecidr -o html` and the apiserver's /servicenet/usage,
 * are rendered in headless Chromium; the numbers of the rendered DOM are checked against the API,
 * and the screenshots stay in the test's output directory (paths printed).
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { request, type RequestOptions } from "node:https";
import path from "node:path";
import { CoreV1Api, NetworkingV1Api, type KubeConfig, type V1Service } from "@kubernetes/client-node";
import { cidrContains, parseCIDR, parseIP } from "@servicenet/api";
import { eventually } from "@servicenet/testing";
import { afterAll, describe, expect, it } from "vitest";
import { binOf } from "../framework/bins.ts";
import { findChromium, renderPage } from "../framework/chromium.ts";
import { tempDir } from "../framework/processes.ts";
import { startUpCluster, type UpCluster } from "../up/cluster.ts";

const chromium = findChromium();
if (chromium === undefined) console.warn("usage-page: no chromium (apt-get install chromium), skipping the rendered-page checks");
const kubectlBin = binOf("@servicenet/kubectl", "servicenet-kubectl");

/** The `data-*` attributes of every range section of a (rendered) page, with its rendered cell count. */
function sections(dom: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const parts = dom.split(/(?=<section )/).slice(1);
  for (const p of parts) {
    const tag = /^<section [^>]*>/.exec(p)?.[0] ?? "";
    const attrs: Record<string, string> = {};
    for (const m of tag.matchAll(/data-([\w-]+)="([^"]*)"/g)) attrs[m[1]!] = m[2]!;
    const body = p.slice(0, p.indexOf("</section>"));
    attrs["rendered-cells"] = String((body.match(/<rect class="cell /g) ?? []).length);
    const bitmap = /<p class="bitmap [^"]*"(?: data-only-in-bitmap="(\d+)" data-only-in-ipaddress="(\d+)")?/.exec(body);
    if (bitmap?.[1] !== undefined) attrs["only-in-bitmap"] = bitmap[1];
    if (bitmap?.[2] !== undefined) attrs["only-in-ipaddress"] = bitmap[2];
    out.push(attrs);
  }
  return out;
}

/** GET `path` from the apiserver with the kubeconfig's credentials. */
async function getText(kc: KubeConfig, urlPath: string): Promise<{ status: number; body: string }> {
  const server = new URL(kc.getCurrentCluster()!.server);
  const opts: RequestOptions = { hostname: server.hostname, port: server.port, path: urlPath, method: "GET" };
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const req = request(opts, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function kubectl(kubeconfig: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [kubectlBin, "--kubeconfig", kubeconfig, ...args], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

const service = (name: string, spec: V1Service["spec"]): V1Service => ({
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

describe("the usage page of each Service range", () => {
  let cluster: UpCluster | undefined;
  const out = tempDir("usage-page");
  const kubectlHTML = path.join(out, "kubectl-usage.html");
  const apiserverHTML = path.join(out, "apiserver-usage.html");
  /** Addresses (IPAddress objects) per CIDR, and the (ServiceCIDR, CIDR) pairs, as the API has them. */
  let inCIDR: (cidr: string) => number = () => 0;
  let cidrs: { name: string; cidr: string }[] = [];
  afterAll(async () => {
    await cluster?.stop();
    console.log(`usage-page: pages and screenshots kept in ${out}`);
  });

  it("writes both pages for /16, /112, /64 and a deleting ServiceCIDR", async () => {
    cluster = await startUpCluster([], 40_000);
    const kc = cluster.kubeConfig;
    const net = kc.makeApiClient(NetworkingV1Api);
    const core = kc.makeApiClient(CoreV1Api);
    for (const [name, cidrs] of [
      ["wide", ["fd00:20::/64"]],
      ["extra", ["10.200.0.0/24"]],
      ["old", ["10.201.0.0/24"]],
    ] as const) {
      await net.createServiceCIDR({ body: { metadata: { name }, spec: { cidrs: [...cidrs] } } });
    }
    const ready = async () => {
      const l = await net.listServiceCIDR();
      return l.items.length === 4 && l.items.every((c) => c.status?.conditions?.some((x) => x.type === "Ready" && x.status === "True"));
    };
    expect(await eventually(ready, { timeoutMs: 30_000 })).toBe(true);
    for (let i = 0; i < 12; i++)
      await core.createNamespacedService({ namespace: "default", body: service(`app-${i}`, { ipFamilyPolicy: "RequireDualStack" }) });
    const pinned: [string, V1Service["spec"]][] = [
      ["pinned", { clusterIP: "10.96.0.20" }],
      ["in-extra", { clusterIP: "10.200.0.5" }],
      ["in-wide", { ipFamilies: ["IPv6"], clusterIP: "fd00:20::1:5" }],
      ["in-wide-high", { ipFamilies: ["IPv6"], clusterIP: "fd00:20::ffff:ffff:0:1" }],
      ["in-old", { clusterIP: "10.201.0.9" }],
    ];
    for (const [name, spec] of pinned) await core.createNamespacedService({ namespace: "default", body: service(name, spec) });
    await net.deleteServiceCIDR({ name: "old" });
    // Held by its finalizer: the Service in-old still has 10.201.0.9.
    await new Promise((r) => setTimeout(r, 1_500));
    const old = await net.readServiceCIDR({ name: "old" });
    expect(old.metadata?.deletionTimestamp).toBeDefined();

    const ips = (await net.listIPAddress()).items.map((i) => i.metadata!.name!);
    cidrs = (await net.listServiceCIDR()).items.flatMap((c) => c.spec!.cidrs!.map((cidr) => ({ name: c.metadata!.name!, cidr })));
    inCIDR = (cidr: string) => ips.filter((ip) => cidrContains(parseCIDR(cidr)!, parseIP(ip)!)).length;

    writeFileSync(kubectlHTML, await kubectl(cluster.kubeconfigPath, ["usage", "servicecidr", "--output", "html"]));
    const page = await getText(kc, "/servicenet/usage");
    expect(page.status).toBe(200);
    writeFileSync(apiserverHTML, page.body);
    expect(page.body.match(/<section class="range/g)).toHaveLength(cidrs.length);
  }, 180_000);

  it.skipIf(chromium === undefined)(
    "renders both in headless Chromium with the API's numbers",
    async () => {
      for (const [view, file] of [
        ["kubectl", kubectlHTML],
        ["apiserver", apiserverHTML],
      ] as const) {
        const png = path.join(out, `${view}-usage.png`);
        const { dom } = await renderPage(chromium!, file, png, { width: 1200, height: 4200 });
        console.log(`usage-page: ${view} screenshot ${png}`);
        const got = sections(dom);
        expect(got.map((s) => `${s["name"]} ${s["cidr"]}`).sort()).toEqual(cidrs.map((c) => `${c.name} ${c.cidr}`).sort());
        for (const s of got) {
          expect(s["allocated"], `${view} ${s["cidr"]}`).toBe(String(inCIDR(s["cidr"]!)));
          expect(BigInt(s["allocated"]!) + BigInt(s["free"]!)).toBe(BigInt(s["size"]!));
          // Chromium drew every cell, and a /64 stays a few hundred of them.
          expect(s["rendered-cells"]).toBe(s["cells"]);
          expect(Number(s["cells"])).toBeLessThan(1_000);
        }
        const by = (cidr: string) => got.find((s) => s["cidr"] === cidr)!;
        expect(by("10.96.0.0/16")).toMatchObject({ size: "65534", "static-size": "256", status: "Ready" });
        expect(by("fd00:10:96::/112")).toMatchObject({ size: "65535", "static-size": "256" });
        expect(by("fd00:20::/64")).toMatchObject({ size: "18446744073709551615", "static-size": "256", allocated: "2" });
        expect(by("10.201.0.0/24")).toMatchObject({ status: "Terminating", allocated: "1", "static-size": "16" });
        expect(Number(by("10.96.0.0/16")["static-used"])).toBeGreaterThanOrEqual(2); // kubernetes 10.96.0.1 and pinned 10.96.0.20
        if (view === "apiserver") {
          // Only the apiserver reads the bitmaps: the flag ranges have one, in step with the IPAddresses.
          expect(by("10.96.0.0/16")).toMatchObject({ "only-in-bitmap": "0", "only-in-ipaddress": "0" });
          expect(by("fd00:10:96::/112")).toMatchObject({ "only-in-bitmap": "0", "only-in-ipaddress": "0" });
          expect(by("fd00:20::/64")["only-in-bitmap"]).toBeUndefined();
        } else {
          expect(dom).toContain("not served over the API");
        }
      }
    },
    120_000,
  );
});
