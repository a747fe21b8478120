/**
 * Service create bursts for the fault suites: a fixed mix of single-stack, dual-stack (both
 * orders) and NodePort Services, and a runner that records which creates were acknowledged
 * (2xx received), which got an API error, and which got no answer at all (outcome unknown).
 */
import { NetworkError, pool, type ApiClient, type Json } from "./api-client.ts";
import { serviceIPs, serviceNodePorts } from "./invariants.ts";

/** The i-th Service of a burst: 1/4 each of SingleStack, SingleStack IPv6, PreferDualStack, RequireDualStack [IPv6,IPv4]; every 3rd a NodePort. */
export function burstService(name: string, i: number, dualStack = true): Json {
  const ports = [{ name: "http", port: 80, targetPort: 8080 }, ...(i % 6 === 0 ? [{ name: "https", port: 443, targetPort: 8443 }] : [])];
  const spec: Json = { selector: { app: name }, ports, ...(i % 3 === 0 ? { type: "NodePort" } : {}) };
  if (dualStack) {
    switch (i % 4) {
      case 1:
        Object.assign(spec, { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv6"] });
        break;
      case 2:
        Object.assign(spec, { ipFamilyPolicy: "PreferDualStack" });
        break;
      case 3:
        Object.assign(spec, { ipFamilyPolicy: "RequireDualStack", ipFamilies: ["IPv6", "IPv4"] });
        break;
    }
  }
  return { apiVersion: "v1", kind: "Service", metadata: { name, namespace: "default" }, spec };
}

/** What a create returned: its ClusterIPs and NodePorts. */
export interface Acked {
  clusterIPs: string[];
  nodePorts: number[];
}

/** The outcome of a burst, by Service name. */
export interface BurstResult {
  acked: Map<string, Acked>;
  /** API errors: name -> "status: message". */
  rejected: Map<string, string>;
  /** No HTTP answer (connection reset/refused, timeout): the create may or may not have happened. */
  unknown: Map<string, string>;
  /** Names never sent (the burst stopped first). */
  notSent: string[];
  elapsedMs: number;
}

export interface BurstOptions {
  concurrency?: number;
  /** Stop sending once any request fails with a network error (the server is gone). */
  stopOnNetworkError?: boolean;
  /** Called after each acknowledged create with the number acknowledged so far. */
  onAck?: (count: number) => void;
  /** Treat 409 AlreadyExists as acknowledged (retrying creates of unknown outcome). */
  adoptExisting?: boolean;
  timeoutMs?: number;
}

/** POSTs `bodies` to default/services and classifies every answer. */
export async function runBurst(c: ApiClient, bodies: readonly Json[], o: BurstOptions = {}): Promise<BurstResult> {
  const started = performance.now();
  const res: BurstResult = { acked: new Map(), rejected: new Map(), unknown: new Map(), notSent: [], elapsedMs: 0 };
  const sent = new Set<string>();
  let stop = false;
  await pool(bodies, o.concurrency ?? 16, async (body) => {
    const name: string = body.metadata.name;
    if (stop) return;
    sent.add(name);
    try {
      let r = await c.call("POST", "/api/v1/namespaces/default/services", body, o.timeoutMs);
      if (r.status === 409 && o.adoptExisting)
        r = await c.call("GET", `/api/v1/namespaces/default/services/${name}`, undefined, o.timeoutMs);
      if (r.status >= 200 && r.status < 300) {
        res.acked.set(name, { clusterIPs: serviceIPs(r.body), nodePorts: serviceNodePorts(r.body) });
        o.onAck?.(res.acked.size);
      } else res.rejected.set(name, `${r.status}: ${r.body?.message ?? "(no Status body)"}`);
    } catch (e) {
      if (!(e instanceof NetworkError)) throw e;
      res.unknown.set(name, e.code);
      if (o.stopOnNetworkError) stop = true;
    }
  });
  res.notSent = bodies.map((b) => b.metadata.name as string).filter((n) => !sent.has(n));
  res.elapsedMs = Math.round(performance.now() - started);
  return res;
}

/** Compares stored Services with what their creates acknowledged; returns the mismatches. */
export function ackMismatches(acked: ReadonlyMap<string, Acked>, stored: readonly Json[]): string[] {
  const byName = new Map(stored.filter((s) => s.metadata.namespace === "default").map((s) => [s.metadata.name as string, s]));
  const out: string[] = [];
  for (const [name, a] of acked) {
    const s = byName.get(name);
    if (!s) out.push(`${name}: acknowledged but missing`);
    else if (JSON.stringify(serviceIPs(s)) !== JSON.stringify(a.clusterIPs))
      out.push(`${name}: clusterIPs ${JSON.stringify(serviceIPs(s))}, acknowledged ${JSON.stringify(a.clusterIPs)}`);
    else if (JSON.stringify(serviceNodePorts(s)) !== JSON.stringify(a.nodePorts))
      out.push(`${name}: nodePorts ${JSON.stringify(serviceNodePorts(s))}, acknowledged ${JSON.stringify(a.nodePorts)}`);
  }
  return out;
}
