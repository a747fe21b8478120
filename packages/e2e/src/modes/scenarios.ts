/**
 * The Service scenarios of the modes suite beyond the create matrix: upgrade and downgrade of the
 * IP families, headless with and without selector, NodePort and ExternalName, each checked as
 * upstream answers it in the cluster's mode. Every function returns the discrepancies it found.
 */
import type { ApiClient, Json } from "../faults/api-client.ts";
import { familiesOf, type Family, type Mode } from "./create-matrix.ts";
import { inServiceRange } from "./matrix-run.ts";

const ports = [{ name: "http", port: 80, targetPort: 8080 }];
const otherFamily = (f: Family): Family => (f === "IPv4" ? "IPv6" : "IPv4");

/** POST a Service to default; returns status and body. */
export async function createService(c: ApiClient, name: string, spec: Json): Promise<{ status: number; body: Json }> {
  return c.call("POST", "/api/v1/namespaces/default/services", { apiVersion: "v1", kind: "Service", metadata: { name }, spec });
}

/** GET, change the spec, PUT back (a client's read-modify-write). */
export async function updateService(c: ApiClient, name: string, change: (spec: Json) => void): Promise<{ status: number; body: Json }> {
  const got = await c.call("GET", `/api/v1/namespaces/default/services/${name}`);
  change(got.body.spec);
  return c.call("PUT", `/api/v1/namespaces/default/services/${name}`, got.body);
}

/** A problem unless `r` is a 422 whose message names `field` and contains `detail`. */
export function expectInvalid(what: string, r: { status: number; body: Json }, field: string, detail: string): string[] {
  const msg: string = r.body?.message ?? "";
  return r.status === 422 && msg.includes(`${field}: `) && msg.includes(detail)
    ? []
    : [`${what}: want 422 "${field}: ... ${detail}", got ${r.status} "${msg}"`];
}

/** A problem unless the Service answer has these families, one in-range IP each, primary IP `keep` if given. */
export function expectFamilies(what: string, r: { status: number; body: Json }, want: Family[], keep?: string): string[] {
  if (r.status !== 200 && r.status !== 201) return [`${what}: got ${r.status} ${r.body?.message}`];
  const s = r.body.spec;
  const ips: string[] = s.clusterIPs ?? [];
  const ok =
    JSON.stringify(s.ipFamilies) === JSON.stringify(want) &&
    ips.length === want.length &&
    want.every((f, i) => inServiceRange(ips[i]!, f)) &&
    (keep === undefined || ips[0] === keep);
  return ok
    ? []
    : [
        `${what}: families ${JSON.stringify(s.ipFamilies)} IPs ${JSON.stringify(ips)}, want ${JSON.stringify(want)}${keep ? ` keeping ${keep}` : ""}`,
      ];
}

/** SingleStack -> PreferDualStack / RequireDualStack, then RequireDualStack -> SingleStack. */
export async function upgradeAndDowngrade(c: ApiClient, mode: Mode): Promise<string[]> {
  const fams = familiesOf(mode);
  const [primary] = fams as [Family];
  const dual = fams.length === 2;
  const p: string[] = [];
  for (const name of ["up-pds", "up-rds", "up-order", "down-bad"])
    p.push(...expectFamilies(`create ${name}`, await createService(c, name, { selector: { app: name }, ports }), [primary]));
  const ip0 = async (name: string): Promise<string> =>
    (await c.call("GET", `/api/v1/namespaces/default/services/${name}`)).body.spec.clusterIPs[0];
  // Upgrade: PreferDualStack goes dual only where the cluster is.
  const pdsIP = await ip0("up-pds");
  p.push(
    ...expectFamilies(
      "SingleStack -> PreferDualStack",
      await updateService(c, "up-pds", (s) => (s.ipFamilyPolicy = "PreferDualStack")),
      fams,
      pdsIP,
    ),
  );
  const rdsIP = await ip0("up-rds");
  const rds = await updateService(c, "up-rds", (s) => (s.ipFamilyPolicy = "RequireDualStack"));
  if (!dual)
    return [
      ...p,
      ...expectInvalid(
        "SingleStack -> RequireDualStack",
        rds,
        "spec.ipFamilyPolicy",
        "this cluster is not configured for dual-stack services",
      ),
    ];
  p.push(...expectFamilies("SingleStack -> RequireDualStack", rds, fams, rdsIP));
  const wrongOrder = await updateService(c, "up-order", (s) =>
    Object.assign(s, { ipFamilyPolicy: "RequireDualStack", ipFamilies: [otherFamily(primary), primary] }),
  );
  p.push(
    ...expectInvalid(
      "upgrade with the families reversed",
      wrongOrder,
      "spec.clusterIPs[0]",
      `expected an ${otherFamily(primary)} value as indicated by \`ipFamilies[0]\``,
    ),
  );
  // Downgrade: SingleStack trims to the primary and frees the secondary at once.
  const secondary: string = rds.body?.spec?.clusterIPs?.[1];
  p.push(
    ...expectFamilies(
      "RequireDualStack -> SingleStack",
      await updateService(c, "up-rds", (s) => (s.ipFamilyPolicy = "SingleStack")),
      [primary],
      rdsIP,
    ),
  );
  const reuse = await createService(c, "reuse-secondary", {
    selector: { app: "x" },
    ports,
    ipFamilyPolicy: "SingleStack",
    ipFamilies: [otherFamily(primary)],
    clusterIP: secondary,
    clusterIPs: [secondary],
  });
  if (reuse.status !== 201) p.push(`the downgraded secondary ${secondary} is not free: ${reuse.status} ${reuse.body?.message}`);
  await updateService(c, "down-bad", (s) => (s.ipFamilyPolicy = "RequireDualStack"));
  const bad = await updateService(c, "down-bad", (s) => Object.assign(s, { clusterIPs: [s.clusterIPs[0]], ipFamilies: [primary] }));
  p.push(
    ...expectInvalid(
      "dropping the secondary without SingleStack",
      bad,
      "spec.ipFamilyPolicy",
      "must be 'SingleStack' to release the secondary cluster IP",
    ),
  );
  return p;
}

/** Headless with and without selector, NodePort, ExternalName; the Services selecting app=web are the endpoint scenario's. */
export async function serviceKinds(c: ApiClient, mode: Mode): Promise<{ problems: string[]; nodePort: number }> {
  const fams = familiesOf(mode);
  const [primary] = fams as [Family];
  const p: string[] = [];
  const headless = (r: { status: number; body: Json }, what: string, want: Family[]): string[] =>
    r.status === 201 &&
    JSON.stringify(r.body.spec.clusterIPs) === '["None"]' &&
    JSON.stringify(r.body.spec.ipFamilies) === JSON.stringify(want)
      ? []
      : [`${what}: ${r.status} ${JSON.stringify(r.body?.spec ?? r.body?.message)}`];
  p.push(
    ...headless(
      await createService(c, "web-hl", { clusterIP: "None", selector: { app: "web" }, ports, ipFamilyPolicy: "PreferDualStack" }),
      "headless with selector",
      fams,
    ),
  );
  // Selectorless headless defaults to RequireDualStack with both families, even on a single-stack cluster.
  p.push(
    ...headless(await createService(c, "hl-nosel", { clusterIP: "None", ports }), "headless without selector", [
      primary,
      otherFamily(primary),
    ]),
  );
  const np = await createService(c, "web-np", { type: "NodePort", selector: { app: "web" }, ports, ipFamilyPolicy: "PreferDualStack" });
  p.push(...expectFamilies("NodePort", np, fams));
  const nodePort: number = np.body?.spec?.ports?.[0]?.nodePort ?? 0;
  if (!(nodePort >= 30000 && nodePort <= 32767)) p.push(`NodePort: nodePort ${nodePort}`);
  p.push(
    ...expectInvalid(
      "headless NodePort",
      await createService(c, "np-hl", { type: "NodePort", clusterIP: "None", selector: { app: "x" }, ports }),
      "spec.clusterIPs[0]",
      "may not be set to 'None' for NodePort services",
    ),
  );
  const ext = await createService(c, "ext", { type: "ExternalName", externalName: "db.example.com" });
  const es = ext.body?.spec ?? {};
  if (ext.status !== 201 || es.clusterIP || es.clusterIPs || es.ipFamilies || es.ipFamilyPolicy)
    p.push(`ExternalName: ${ext.status} ${JSON.stringify(es)}`);
  p.push(
    ...expectInvalid(
      "ExternalName with a policy",
      await createService(c, "ext-bad", { type: "ExternalName", externalName: "db.example.com", ipFamilyPolicy: "SingleStack" }),
      "spec.ipFamilyPolicy",
      "may not be set for ExternalName services",
    ),
  );
  for (const [name, extra] of [
    ["web-ss", {}],
    ["web-pds", { ipFamilyPolicy: "PreferDualStack" }],
    ["web-other", { ipFamilyPolicy: "SingleStack", ipFamilies: [otherFamily(primary)] }],
  ] as const) {
    if (name === "web-other" && fams.length === 1) continue;
    const r = await createService(c, name, { selector: { app: "web" }, ports, ...extra });
    if (r.status !== 201) p.push(`${name}: ${r.status} ${r.body?.message}`);
  }
  return { problems: p, nodePort };
}
