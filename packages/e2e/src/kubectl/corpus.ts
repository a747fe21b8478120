/**
 * The upstream-fixture corpus (`@servicenet/kubectl`'s testdata/corpus/corpus.json: objects
 * transcribed from kubectl's describe_test.go and kubernetes' printers_test.go) created through
 * the API: namespaces first, each object POSTed (server-allocated values re-allocated when the
 * fixture's are taken), then its status written through /status.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Rest } from "./rest.ts";

type Obj = Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string } };

export interface CorpusCase {
  case: string;
  objects: Obj[];
}

/** The corpus file from the kubectl package. */
export function loadCorpus(): CorpusCase[] {
  const pkg = createRequire(import.meta.url).resolve("@servicenet/kubectl/package.json");
  const file = join(dirname(pkg), "testdata", "corpus", "corpus.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { cases: CorpusCase[] }).cases;
}

/** REST collection path and kubectl type name per kind. */
export const kindInfo: Record<string, { type: string; collection: (ns?: string) => string }> = {
  Service: { type: "service", collection: (ns) => `/api/v1/namespaces/${ns ?? ""}/services` },
  EndpointSlice: { type: "endpointslice", collection: (ns) => `/apis/discovery.k8s.io/v1/namespaces/${ns ?? ""}/endpointslices` },
  Endpoints: { type: "endpoints", collection: (ns) => `/api/v1/namespaces/${ns ?? ""}/endpoints` },
  Node: { type: "node", collection: () => "/api/v1/nodes" },
  Pod: { type: "pod", collection: (ns) => `/api/v1/namespaces/${ns ?? ""}/pods` },
  Event: { type: "event", collection: (ns) => `/api/v1/namespaces/${ns ?? ""}/events` },
  ServiceCIDR: { type: "servicecidr", collection: () => "/apis/networking.k8s.io/v1/servicecidrs" },
  IPAddress: { type: "ipaddress", collection: () => "/apis/networking.k8s.io/v1/ipaddresses" },
  RoleBinding: { type: "rolebinding", collection: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns ?? ""}/rolebindings` },
  ClusterRoleBinding: { type: "clusterrolebinding", collection: () => "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings" },
};

/** Drops the values the server allocates (Service cluster IPs and node ports), so it picks free ones. */
function withoutAllocated(o: Obj): Obj {
  const copy = structuredClone(o);
  const spec = copy["spec"] as Record<string, unknown> | undefined;
  if (copy.kind === "Service" && spec !== undefined) {
    delete spec["clusterIP"];
    delete spec["clusterIPs"];
    delete spec["healthCheckNodePort"];
    for (const p of (spec["ports"] ?? []) as Record<string, unknown>[]) delete p["nodePort"];
  }
  return copy;
}

/** Creates every object of the corpus; returns them as stored. */
export async function createCorpus(rest: Rest, cases: CorpusCase[]): Promise<Obj[]> {
  const namespaces = new Set(cases.flatMap((c) => c.objects.map((o) => o.metadata.namespace).filter((n) => n !== undefined)));
  for (const ns of namespaces) await rest.call("POST", "/api/v1/namespaces", { metadata: { name: ns } });
  const out: Obj[] = [];
  for (const o of cases.flatMap((c) => c.objects)) {
    const info = kindInfo[o.kind];
    if (info === undefined) throw new Error(`corpus: no kind ${o.kind}`);
    const path = info.collection(o.metadata.namespace);
    const { status, ...body } = o;
    let created: Obj;
    try {
      created = await rest.call<Obj>("POST", path, body);
    } catch (err) {
      if (!/already allocated|provided port is already|provided IP is already/i.test(String(err))) throw err;
      created = await rest.call<Obj>("POST", path, withoutAllocated(body));
    }
    if (status !== undefined) created = await rest.call<Obj>("PUT", `${path}/${o.metadata.name}/status`, { ...created, status });
    out.push(created);
  }
  return out;
}
