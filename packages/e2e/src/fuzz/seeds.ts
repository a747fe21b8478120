/**
 * One valid object per writable resource, created before the fuzz run so that item, status and
 * update paths address something real; the fuzz mutates these shapes into hostile bodies.
 */
import type { RawClient } from "./raw-client.ts";

/** The namespace the fuzz works in (created as a seed). */
export const fuzzNamespace = "fuzz";

/** `<group>/<resource>` → the seed's name and a body builder (apiVersion/kind set by the caller). */
export const seedObjects: Readonly<Record<string, { name: string; body: (name: string) => Record<string, unknown> }>> = {
  "/namespaces": { name: fuzzNamespace, body: (name) => ({ metadata: { name } }) },
  "/services": {
    name: "fuzz-svc",
    body: (name) => ({
      metadata: { name, labels: { app: "fuzz" } },
      spec: { ipFamilyPolicy: "PreferDualStack", selector: { app: "fuzz" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
    }),
  },
  "/endpoints": {
    name: "fuzz-svc",
    body: (name) => ({ metadata: { name }, subsets: [{ addresses: [{ ip: "10.1.0.1" }], ports: [{ name: "http", port: 8080 }] }] }),
  },
  "/pods": {
    name: "fuzz-pod",
    body: (name) => ({
      metadata: { name, labels: { app: "fuzz" } },
      spec: { containers: [{ name: "c", image: "busybox", ports: [{ containerPort: 8080 }] }] },
    }),
  },
  "/nodes": { name: "fuzz-node", body: (name) => ({ metadata: { name }, spec: { podCIDRs: ["10.244.0.0/24"] } }) },
  "/events": {
    name: "fuzz-event",
    body: (name) => ({
      metadata: { name },
      involvedObject: { kind: "Pod", namespace: fuzzNamespace, name: "fuzz-pod" },
      reason: "Fuzz",
      message: "seed",
      type: "Normal",
      count: 1,
    }),
  },
  "coordination.k8s.io/leases": {
    name: "fuzz-lease",
    body: (name) => ({ metadata: { name }, spec: { holderIdentity: "fuzz", leaseDurationSeconds: 15 } }),
  },
  "discovery.k8s.io/endpointslices": {
    name: "fuzz-svc-ipv4",
    body: (name) => ({
      metadata: { name, labels: { "kubernetes.io/service-name": "fuzz-svc" } },
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.1.0.1"], conditions: { ready: true } }],
      ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    }),
  },
  "networking.k8s.io/servicecidrs": { name: "fuzz-cidr", body: (name) => ({ metadata: { name }, spec: { cidrs: ["10.250.0.0/24"] } }) },
  "networking.k8s.io/ipaddresses": {
    name: "10.250.0.10",
    body: (name) => ({
      metadata: { name },
      spec: { parentRef: { group: "", resource: "services", namespace: fuzzNamespace, name: "fuzz-svc" } },
    }),
  },
};

/** The seed for a resource, if it has one. */
export function seedFor(group: string, resource: string): { name: string; body: (name: string) => Record<string, unknown> } | undefined {
  return seedObjects[`${group}/${resource}`];
}

/** Creates every seed (namespace first); returns the ones the server refused, with its answer. */
export async function createSeeds(client: RawClient): Promise<string[]> {
  const order: [string, string, string, boolean][] = [
    ["", "v1", "namespaces", false],
    ["", "v1", "services", true],
    ["", "v1", "endpoints", true],
    ["", "v1", "pods", true],
    ["", "v1", "nodes", false],
    ["", "v1", "events", true],
    ["coordination.k8s.io", "v1", "leases", true],
    ["discovery.k8s.io", "v1", "endpointslices", true],
    ["networking.k8s.io", "v1", "servicecidrs", false],
    ["networking.k8s.io", "v1", "ipaddresses", false],
  ];
  const refused: string[] = [];
  for (const [group, version, resource, namespaced] of order) {
    const seed = seedFor(group, resource)!;
    const gv = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
    const path = namespaced ? `${gv}/namespaces/${fuzzNamespace}/${resource}` : `${gv}/${resource}`;
    const r = await client.send({
      method: "POST",
      path,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(seed.body(seed.name)),
    });
    if (r.status !== 201) refused.push(`${resource}: ${r.status} ${r.body.toString("utf8").slice(0, 200)}`);
    // The ServiceAccount admission plugin refuses a Pod whose namespace has no `default`
    // ServiceAccount; with no controller-manager here, the seeds make it as its serviceaccount
    // controller would.
    if (resource === "namespaces") await ensureDefaultServiceAccount(client, refused);
  }
  return refused;
}

/** Creates the fuzz namespace's `default` ServiceAccount (an existing one is fine). */
async function ensureDefaultServiceAccount(client: RawClient, refused: string[]): Promise<void> {
  const r = await client.send({
    method: "POST",
    path: `/api/v1/namespaces/${fuzzNamespace}/serviceaccounts`,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ metadata: { name: "default" } }),
  });
  if (r.status !== 201 && r.status !== 409) refused.push(`serviceaccounts: ${r.status} ${r.body.toString("utf8").slice(0, 200)}`);
}
