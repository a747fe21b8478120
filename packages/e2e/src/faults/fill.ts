/**
 * The leak check: on a small dual-stack range, after every Service was deleted, creating Services
 * until the allocators say "full" must take every address of both families and every NodePort.
 * An IP or port leaked by a killed process (or a delete that did not free it) shows up as a short
 * count. Only API calls: the counts come from listing Services.
 */
import { listAll, pool, type ApiClient, type Json } from "./api-client.ts";
import { canonicalIP, serviceIPs, serviceNodePorts } from "./invariants.ts";

/** Usable ClusterIPs of a CIDR as upstream's Range counts them (network address, IPv4 broadcast out; IPv6 capped at 2^16). */
export function rangeCapacity(cidr: string): number {
  const bits = Number(cidr.split("/")[1]);
  return cidr.includes(":") ? Math.min(2 ** (128 - bits), 65536) - 1 : 2 ** (32 - bits) - 2;
}

/** Creates Services from `makeBody(i)` until one is refused; returns how many were created and the refusals. */
export async function createUntilRefused(
  c: ApiClient,
  makeBody: (i: number) => Json,
  max: number,
  concurrency = 16,
): Promise<{ created: number; refusals: string[] }> {
  let created = 0;
  let stop = false;
  const refusals: string[] = [];
  let next = 0;
  await pool(Array.from({ length: concurrency }), concurrency, async () => {
    while (!stop && next < max) {
      const r = await c.call("POST", "/api/v1/namespaces/default/services", makeBody(next++));
      if (r.status === 201) created++;
      else {
        stop = true;
        refusals.push(`${r.status}: ${r.body?.message}`);
      }
    }
  });
  return { created, refusals };
}

/** What the Services hold after a fill. */
export interface HeldCounts {
  v4: number;
  v6: number;
  nodePorts: number;
}

/** Addresses of a small CIDR (<= 2^16) that no Service holds, in canonical text; for failure messages. */
export function unheldIPs(cidr: string, held: ReadonlySet<string>): string[] {
  const [base, bitsText] = cidr.split("/") as [string, string];
  const size = 2 ** ((cidr.includes(":") ? 128 : 32) - Number(bitsText));
  const out: string[] = [];
  for (let i = 1; i < size - (cidr.includes(":") ? 0 : 1) && i <= 65535; i++) {
    let ip: string;
    if (cidr.includes(":")) {
      // Only bases ending in "::" (all the suites use): the offset lands in the last hextet.
      const b = canonicalIP(base);
      if (!b.endsWith("::")) throw new Error(`unheldIPs: unsupported IPv6 base ${cidr}`);
      ip = canonicalIP(`${b}${i.toString(16)}`);
    } else {
      const n = (base.split(".").reduce((a, o) => a * 256 + Number(o), 0) + i) >>> 0;
      ip = [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".");
    }
    if (!held.has(ip)) out.push(ip);
  }
  return out;
}

/** Every ClusterIP held by a Service. */
export async function heldIPs(c: ApiClient): Promise<Set<string>> {
  return new Set((await listAll(c, "/api/v1/services")).flatMap(serviceIPs));
}

/** Distinct IPv4/IPv6 ClusterIPs and NodePorts held by all Services. */
export async function heldCounts(c: ApiClient): Promise<HeldCounts> {
  const services = await listAll(c, "/api/v1/services");
  const ips = new Set(services.flatMap(serviceIPs));
  return {
    v4: [...ips].filter((ip) => !ip.includes(":")).length,
    v6: [...ips].filter((ip) => ip.includes(":")).length,
    nodePorts: new Set(services.flatMap(serviceNodePorts)).size,
  };
}

const svc = (name: string, spec: Json): Json => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace: "default" },
  spec: { selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080 }], ...spec },
});

/**
 * Fills a dual-stack cluster: two-port NodePort RequireDualStack Services until the NodePorts run out,
 * then ClusterIP RequireDualStack until the smaller family is full, then SingleStack Services of
 * the other family until it is full too. What a kill left held (orphaned IPAddress objects, bitmap
 * bits and NodePorts of creates that never stored their Service) is freed by the repair loops
 * (IPAddress orphans after 60 s, bits and NodePorts on the third pass); the fill retries until
 * `graceMs` is over, so each leak has had its chance to be collected.
 */
export async function fillDualStack(
  c: ApiClient,
  o: { v4Cidr: string; v6Cidr: string; prefix: string; graceMs?: number; nodePorts?: number },
): Promise<{ held: HeldCounts; created: number; refusals: string[]; ms: number }> {
  const started = performance.now();
  const deadline = Date.now() + (o.graceMs ?? 60_000) + 15_000;
  const want = { v4: rangeCapacity(o.v4Cidr), v6: rangeCapacity(o.v6Cidr) };
  let created = 0;
  let round = 0;
  const refusals: string[] = [];
  for (;;) {
    const p = `${o.prefix}${round++}-`;
    // Two NodePorts per Service: the ports (2,768) run out before the IPs of a /21 do. A create
    // takes both in one allocator operation; taken one by one, 16 concurrent creates near the end
    // each held one, failed on the second and rolled back, leaving ports free that no later round
    // takes (its IPs are gone by then), which on etcd looked like leaked NodePorts.
    const twoPorts = [
      { name: "http", port: 80, targetPort: 8080 },
      { name: "https", port: 443, targetPort: 8443 },
    ];
    const np = await createUntilRefused(
      c,
      (i) => svc(`${p}np-${i}`, { type: "NodePort", ipFamilyPolicy: "RequireDualStack", ports: twoPorts }),
      5000,
    );
    const dual = await createUntilRefused(c, (i) => svc(`${p}ds-${i}`, { ipFamilyPolicy: "RequireDualStack" }), 70_000);
    const v4 = await createUntilRefused(c, (i) => svc(`${p}v4-${i}`, { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv4"] }), 70_000);
    const v6 = await createUntilRefused(c, (i) => svc(`${p}v6-${i}`, { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv6"] }), 70_000);
    created += np.created + dual.created + v4.created + v6.created;
    refusals.push(...np.refusals, ...dual.refusals, ...v4.refusals, ...v6.refusals);
    const held = await heldCounts(c);
    const complete = held.v4 === want.v4 && held.v6 === want.v6 && (o.nodePorts === undefined || held.nodePorts === o.nodePorts);
    if (complete || Date.now() > deadline) {
      return { held, created, refusals: [...new Set(refusals)], ms: Math.round(performance.now() - started) };
    }
    await new Promise((r) => setTimeout(r, 5_000));
  }
}

/** Deletes the named Services in default; returns the answers that were not 200/202. */
export async function deleteServices(c: ApiClient, names: readonly string[], concurrency = 16): Promise<string[]> {
  const bad: string[] = [];
  await pool(names, concurrency, async (name) => {
    const r = await c.call("DELETE", `/api/v1/namespaces/default/services/${name}`);
    if (r.status !== 200 && r.status !== 202) bad.push(`${name}: ${r.status} ${r.body?.message}`);
  });
  return bad;
}
