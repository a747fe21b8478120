/**
 * The end-to-end half of the modes suite: pods with IPs of both families behind the app=web
 * Services, the EndpointSlices the controller-manager makes of them (one address type per
 * Service family, the pods' addresses of that family), and the dry-run kube-proxy's rule files
 * (each family's file holds the Service's ClusterIP and NodePort of that family, and nothing of a
 * Service for a family it lacks).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { listAll, type ApiClient, type Json } from "../faults/api-client.ts";
import type { Family } from "./create-matrix.ts";
import { familyOfIP } from "./matrix-run.ts";
import { handWrittenScheduler } from "../framework/hand-written-pods.ts";

/** The two web pods and their addresses. */
export const webPods = [
  { name: "web-a", ips: ["10.244.1.1", "fd00:10:244::1:1"] },
  { name: "web-b", ips: ["10.244.1.2", "fd00:10:244::1:2"] },
];

/** Creates the web pods and sets their status (podIPs of both families, Ready) as a kubelet would. */
export async function createWebPods(c: ApiClient): Promise<void> {
  for (const p of webPods) {
    const r = await c.call("POST", "/api/v1/namespaces/default/pods", {
      metadata: { name: p.name, labels: { app: "web" } },
      spec: { schedulerName: handWrittenScheduler, containers: [{ name: "c", image: "x", ports: [{ containerPort: 8080 }] }] },
    });
    if (r.status !== 201) throw new Error(`pod ${p.name}: ${r.status} ${r.body?.message}`);
    r.body.status = {
      phase: "Running",
      podIP: p.ips[0],
      podIPs: p.ips.map((ip) => ({ ip })),
      conditions: [{ type: "Ready", status: "True" }],
    };
    const s = await c.call("PUT", `/api/v1/namespaces/default/pods/${p.name}/status`, r.body);
    if (s.status !== 200) throw new Error(`pod ${p.name} status: ${s.status} ${s.body?.message}`);
  }
}

/** Slice problems for the Services selecting app=web; [] once the controller-manager caught up. */
export async function sliceProblems(c: ApiClient, names: readonly string[]): Promise<{ problems: string[]; slices: number }> {
  const slices = await listAll(c, "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices");
  const p: string[] = [];
  let count = 0;
  for (const name of names) {
    const svc = (await c.call("GET", `/api/v1/namespaces/default/services/${name}`)).body;
    const mine = slices.filter((s) => s.metadata.labels?.["kubernetes.io/service-name"] === name);
    count += mine.length;
    const types = mine.map((s) => s.addressType as string).sort();
    const want = [...(svc.spec.ipFamilies as string[])].sort();
    if (JSON.stringify(types) !== JSON.stringify(want))
      p.push(`${name}: slices ${JSON.stringify(types)}, families ${JSON.stringify(want)}`);
    for (const s of mine) {
      const got = (s.endpoints ?? [])
        .filter((e: Json) => e.conditions?.ready)
        .flatMap((e: Json) => e.addresses as string[])
        .sort();
      const expect = webPods.flatMap((w) => w.ips.filter((ip) => familyOfIP(ip) === s.addressType)).sort();
      if (JSON.stringify(got) !== JSON.stringify(expect))
        p.push(`${name} ${s.addressType}: endpoints ${JSON.stringify(got)}, want ${JSON.stringify(expect)}`);
    }
  }
  return { problems: p, slices: count };
}

/** The dry-run rule file of a family ("" while kube-proxy has not written it). */
export function rulesOf(dir: string, f: Family): string {
  const file = path.join(dir, ".servicenet", "kube-proxy", `iptables-${f === "IPv4" ? "ipv4" : "ipv6"}.rules`);
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/** Rule problems for `names` (Services of any kind) and the NodePort Service; [] once kube-proxy synced. */
export async function ruleProblems(
  c: ApiClient,
  dir: string,
  names: readonly string[],
  nodePortService: string,
): Promise<{ problems: string[]; lines: Record<Family, number> }> {
  const files: Record<Family, string> = { IPv4: rulesOf(dir, "IPv4"), IPv6: rulesOf(dir, "IPv6") };
  const p: string[] = [];
  for (const name of names) {
    const svc = (await c.call("GET", `/api/v1/namespaces/default/services/${name}`)).body;
    const ips: string[] = (svc.spec.clusterIPs ?? []).filter((ip: string) => ip !== "None");
    const nodePort: number | undefined = name === nodePortService ? svc.spec.ports[0].nodePort : undefined;
    for (const f of ["IPv4", "IPv6"] as const) {
      const ip = ips.find((x) => familyOfIP(x) === f);
      const text = files[f];
      if (ip === undefined) {
        if (text.includes(`"default/${name}:`)) p.push(`${name}: has no ${f} ClusterIP but appears in the ${f} rules`);
        continue;
      }
      if (!text.includes(`-d ${ip} --dport 80`)) p.push(`${name}: ${f} rules lack -d ${ip} --dport 80`);
      if (nodePort !== undefined && !text.split("\n").some((l) => l.startsWith("-A KUBE-NODEPORTS") && l.includes(`--dport ${nodePort}`)))
        p.push(`${name}: ${f} rules lack KUBE-NODEPORTS --dport ${nodePort}`);
    }
  }
  return { problems: p, lines: { IPv4: files.IPv4.split("\n").length, IPv6: files.IPv6.split("\n").length } };
}
