/**
 * Sends the create matrix of one cluster mode through the HTTP API and checks every answer:
 * valid cases get the table's policy and families and one IP per family from that family's
 * range in family order (given IPs kept at their index); refused ones get 422 Invalid with the
 * upstream message of their first field error.
 */
import { pool, type ApiClient, type Json } from "../faults/api-client.ts";
import { canonicalIP } from "../faults/invariants.ts";
import { createCases, familiesOf, type CreateCase, type Family, type Mode } from "./create-matrix.ts";
import { expectedError } from "./expect-error.ts";

/** The default `servicenet up` ranges (10.96.0.0/16, fd00:10:96::/112). */
export function inServiceRange(ip: string, family: Family): boolean {
  return family === "IPv4" ? /^10\.96\.\d+\.\d+$/.test(ip) : /^fd00:10:96::[0-9a-f]{1,4}$/.test(canonicalIP(ip));
}

/** The family of an IP string. */
export function familyOfIP(ip: string): Family {
  return ip.includes(":") ? "IPv6" : "IPv4";
}

let nextIP = 1;
/** A fresh IP of the family inside the default range (outside the low band the allocator starts in). */
function givenIP(f: Family): string {
  const k = nextIP++;
  return f === "IPv4" ? `10.96.${200 + Math.floor(k / 250)}.${(k % 250) + 1}` : `fd00:10:96::${(0x2000 + k).toString(16)}`;
}

/** The Service a case sends. */
export function caseBody(c: CreateCase, name: string): { body: Json; ips: string[] } {
  const headless = c.ips === "Headless" || c.ips === "HeadlessSelectorless";
  const ips = headless ? ["None"] : c.ips === "unset" ? [] : familiesOf(c.ips).map(givenIP);
  const spec: Json = { ports: [{ name: "http", port: 80, targetPort: 8080 }] };
  if (c.ips !== "HeadlessSelectorless") spec.selector = { app: name };
  if (ips.length > 0) Object.assign(spec, { clusterIP: ips[0], clusterIPs: ips });
  if (c.policy) spec.ipFamilyPolicy = c.policy;
  if (c.families) spec.ipFamilies = c.families;
  return { body: { apiVersion: "v1", kind: "Service", metadata: { name }, spec }, ips };
}

/** What is wrong with the answer to a case ([] = as upstream). */
export function checkAnswer(c: CreateCase, name: string, given: string[], status: number, body: Json): string[] {
  const label = `${name} (${c.mode} ips=${c.ips} policy=${c.policy ?? "unset"} families=${c.families?.join(",") ?? "unset"})`;
  if (!c.want) {
    const e = expectedError(c)!;
    const msg: string = body?.message ?? "";
    if (status !== 422 || body?.reason !== "Invalid") return [`${label}: want 422 Invalid, got ${status} ${msg}`];
    if (!msg.startsWith(`Service "${name}" is invalid: `) || !msg.includes(`${e.field}: `) || !msg.includes(e.detail))
      return [`${label}: want "${e.field}: ... ${e.detail}", got "${msg}"`];
    return [];
  }
  if (status !== 201) return [`${label}: want 201, got ${status} ${body?.message}`];
  const s = body.spec;
  const out: string[] = [];
  if (s.ipFamilyPolicy !== c.want.policy) out.push(`${label}: policy ${s.ipFamilyPolicy}, want ${c.want.policy}`);
  if (JSON.stringify(s.ipFamilies) !== JSON.stringify(c.want.families))
    out.push(`${label}: families ${JSON.stringify(s.ipFamilies)}, want ${JSON.stringify(c.want.families)}`);
  const ips: string[] = s.clusterIPs ?? [];
  if (given[0] === "None") {
    if (JSON.stringify(ips) !== '["None"]' || s.clusterIP !== "None") out.push(`${label}: headless got ${JSON.stringify(ips)}`);
    return out;
  }
  if (s.clusterIP !== ips[0]) out.push(`${label}: clusterIP ${s.clusterIP} != clusterIPs[0] ${ips[0]}`);
  if (ips.length !== c.want.families.length) out.push(`${label}: ${ips.length} clusterIPs for ${c.want.families.length} families`);
  c.want.families.forEach((f, i) => {
    const ip = ips[i] ?? "";
    if (familyOfIP(ip) !== f || !inServiceRange(ip, f)) out.push(`${label}: clusterIPs[${i}] ${ip} is not an ${f} of the ${f} range`);
  });
  given.forEach((ip, i) => {
    if (canonicalIP(ips[i] ?? "") !== canonicalIP(ip)) out.push(`${label}: given clusterIPs[${i}] ${ip} came back as ${ips[i]}`);
  });
  return out;
}

/** Runs every case of `mode`; returns the counts and every discrepancy. */
export async function runCreateMatrix(
  c: ApiClient,
  mode: Mode,
): Promise<{ cases: number; created: number; refused: number; problems: string[] }> {
  const cases = createCases().filter((k) => k.mode === mode);
  const problems: string[] = [];
  let created = 0;
  let refused = 0;
  await pool(cases, 8, async (k, i) => {
    const name = `m-${i}`;
    const { body, ips } = caseBody(k, name);
    const r = await c.call("POST", "/api/v1/namespaces/default/services", body);
    if (r.status === 201) created++;
    else refused++;
    problems.push(...checkAnswer(k, name, ips, r.status, r.body));
  });
  return { cases: cases.length, created, refused, problems };
}
