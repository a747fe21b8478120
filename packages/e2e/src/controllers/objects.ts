/**
 * Services, Pods (with the status a kubelet would write) and read-back of the EndpointSlices and
 * Endpoints the controllers made, for the controller-manager restart and leader-election suites.
 */
import { CoreV1Api, DiscoveryV1Api, type KubeConfig, type V1Pod, type V1ServiceSpec } from "@kubernetes/client-node";
import { handWrittenScheduler } from "../framework/hand-written-pods.ts";

/** API clients of one cluster. */
export interface Clients {
  core: CoreV1Api;
  discovery: DiscoveryV1Api;
}

export function clientsFor(kc: KubeConfig): Clients {
  return { core: kc.makeApiClient(CoreV1Api), discovery: kc.makeApiClient(DiscoveryV1Api) };
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** A Service selecting `app: <name>` with one named port. */
export async function createService(c: Clients, name: string, spec: V1ServiceSpec = { ipFamilyPolicy: "RequireDualStack" }): Promise<void> {
  await c.core.createNamespacedService({
    namespace: "default",
    body: { metadata: { name }, spec: { selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080 }], ...spec } },
  });
}

/** Pod `<app>-<i>` with dual-stack podIPs derived from `index` (unique across the test). */
export async function createPod(c: Clients, app: string, i: number, index: number, ready = true): Promise<void> {
  const name = `${app}-${i}`;
  const body: V1Pod = {
    metadata: { name, labels: { app } },
    spec: { schedulerName: handWrittenScheduler, containers: [{ name: "c", image: "x", ports: [{ containerPort: 8080 }] }] },
  };
  const created = await c.core.createNamespacedPod({ namespace: "default", body });
  const v4 = `10.244.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  const v6 = `fd00:10:244::${(index + 1).toString(16)}`;
  created.status = {
    phase: "Running",
    podIP: v4,
    podIPs: [{ ip: v4 }, { ip: v6 }],
    conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
  };
  await c.core.replaceNamespacedPodStatus({ name, namespace: "default", body: created });
}

/** Writes the pod's Ready condition (a status update, as a kubelet would). */
export async function setReady(c: Clients, name: string, ready: boolean): Promise<void> {
  const pod = await c.core.readNamespacedPod({ name, namespace: "default" });
  pod.status!.conditions = [{ type: "Ready", status: ready ? "True" : "False" }];
  await c.core.replaceNamespacedPodStatus({ name, namespace: "default", body: pod });
}

/** One EndpointSlice as the suites compare it. */
export interface SliceView {
  name: string;
  uid: string;
  resourceVersion: string;
  addressType: string;
  /** "ip ready" per endpoint, sorted. */
  endpoints: string[];
}

export async function slicesOf(c: Clients, svc: string): Promise<SliceView[]> {
  const l = await c.discovery.listNamespacedEndpointSlice({ namespace: "default", labelSelector: `kubernetes.io/service-name=${svc}` });
  return l.items
    .map((s) => ({
      name: s.metadata!.name!,
      uid: s.metadata!.uid!,
      resourceVersion: s.metadata!.resourceVersion!,
      addressType: s.addressType,
      endpoints: (s.endpoints ?? []).map((e) => `${e.addresses[0]} ${e.conditions?.ready === true}`).sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Per address type: endpoint count, ready count, slice count, and addresses listed more than once. */
export function summarize(
  slices: readonly SliceView[],
): Record<string, { endpoints: number; ready: number; slices: number; duplicates: string[] }> {
  const out: Record<string, { endpoints: number; ready: number; slices: number; duplicates: string[]; seen?: Set<string> }> = {};
  for (const s of slices) {
    const f = (out[s.addressType] ??= { endpoints: 0, ready: 0, slices: 0, duplicates: [], seen: new Set() });
    f.slices++;
    for (const e of s.endpoints) {
      const ip = e.split(" ")[0]!;
      if (f.seen!.has(ip)) f.duplicates.push(ip);
      f.seen!.add(ip);
      f.endpoints++;
      if (e.endsWith(" true")) f.ready++;
    }
  }
  for (const f of Object.values(out)) delete f.seen;
  return out;
}

/** The Endpoints object of `svc` (uid, resourceVersion, ready/notReady counts), or null if absent. */
export async function endpointsOf(
  c: Clients,
  svc: string,
): Promise<{ uid: string; resourceVersion: string; ready: number; notReady: number } | null> {
  try {
    const ep = await c.core.readNamespacedEndpoints({ name: svc, namespace: "default" });
    const sum = (k: "addresses" | "notReadyAddresses") => (ep.subsets ?? []).reduce((n, s) => n + (s[k]?.length ?? 0), 0);
    return {
      uid: ep.metadata!.uid!,
      resourceVersion: ep.metadata!.resourceVersion!,
      ready: sum("addresses"),
      notReady: sum("notReadyAddresses"),
    };
  } catch (err) {
    if ((err as { code?: number }).code === 404) return null;
    throw err;
  }
}
