/**
 * The Service mix the skew suites send: dynamic single-stack (IPv4 and IPv6) and PreferDualStack
 * Services, plus pairs of static-IP Services that ask two apiservers for the same address at the
 * same time (upstream TestSkewAllocatorsRollout: exactly one of each pair may win).
 */
import { NetworkError, pool, type ApiClient, type ApiResponse, type Json } from "../faults/api-client.ts";
import type { BurstResult } from "../faults/burst.ts";
import { serviceIPs, serviceNodePorts } from "../faults/invariants.ts";
import type { Member } from "./shared-cluster.ts";

/** A ClusterIP Service `name` with `spec` merged in. */
export function service(name: string, spec: Json = {}): Json {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: "default" },
    spec: { selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080 }], ...spec },
  };
}

/** The i-th dynamic Service: 1/4 PreferDualStack, 1/8 SingleStack IPv6, the rest the primary (IPv4) family. */
export function dynamicService(name: string, i: number, dualStack: boolean): Json {
  if (dualStack && i % 4 === 1) return service(name, { ipFamilyPolicy: "PreferDualStack" });
  if (dualStack && i % 8 === 3) return service(name, { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv6"] });
  return service(name);
}

/** Work for one member: the bodies it creates. */
export interface Share {
  member: Member;
  bodies: Json[];
}

/**
 * Splits `dynamic` dynamic creates evenly over `a` and `b`, and adds `pairs` contested static
 * IPs (`staticIP(k)`), one body per member per IP, placed next to each other in the send order so
 * that both requests are in flight together.
 */
export function skewShares(
  a: Member,
  b: Member,
  o: { prefix: string; dynamic: number; pairs: number; staticIP: (k: number) => string; dualStack: boolean },
): [Share, Share] {
  const sa: Json[] = [];
  const sb: Json[] = [];
  const every = Math.max(1, Math.floor(o.dynamic / 2 / Math.max(1, o.pairs)));
  let k = 0;
  for (let i = 0; i < o.dynamic; i++) {
    (i % 2 === 0 ? sa : sb).push(dynamicService(`${o.prefix}-${i}`, i >> 1, o.dualStack));
    if (i % 2 === 1 && (i >> 1) % every === 0 && k < o.pairs) {
      sa.push(service(`${o.prefix}-static-a-${k}`, { clusterIP: o.staticIP(k) }));
      sb.push(service(`${o.prefix}-static-b-${k}`, { clusterIP: o.staticIP(k) }));
      k++;
    }
  }
  return [
    { member: a, bodies: sa },
    { member: b, bodies: sb },
  ];
}

/** One member's outcome of a concurrent run. */
export interface ShareResult extends BurstResult {
  member: Member;
  perSecond: number;
}

/**
 * One request, sent again once if a reused keep-alive socket was reset before any answer (node's
 * idle-socket race; the server never saw the first one or the retry's 409/404 tells).
 */
export async function callRetryReset(
  c: ApiClient,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse & { retried: boolean }> {
  try {
    return { ...(await c.call(method, path, body, 60_000)), retried: false };
  } catch (e) {
    if (!(e instanceof NetworkError) || !["ECONNRESET", "EPIPE"].includes(e.code)) throw e;
    return { ...(await c.call(method, path, body, 60_000)), retried: true };
  }
}

/** Runs every share at once (`concurrency` requests in flight per member). */
export async function runShares(shares: readonly Share[], concurrency = 16): Promise<ShareResult[]> {
  return Promise.all(
    shares.map(async (s) => {
      const started = performance.now();
      const res: BurstResult = { acked: new Map(), rejected: new Map(), unknown: new Map(), notSent: [], elapsedMs: 0 };
      await pool(s.bodies, concurrency, async (body) => {
        const name: string = body.metadata.name;
        try {
          let r = await callRetryReset(s.member.client, "POST", "/api/v1/namespaces/default/services", body);
          if (r.status === 409 && r.retried)
            r = await callRetryReset(s.member.client, "GET", `/api/v1/namespaces/default/services/${name}`);
          if (r.status >= 200 && r.status < 300)
            res.acked.set(name, { clusterIPs: serviceIPs(r.body), nodePorts: serviceNodePorts(r.body) });
          else res.rejected.set(name, `${r.status}: ${r.body?.message ?? "(no Status body)"}`);
        } catch (e) {
          if (!(e instanceof NetworkError)) throw e;
          res.unknown.set(name, e.code);
        }
      });
      res.elapsedMs = Math.round(performance.now() - started);
      return { ...res, member: s.member, perSecond: Math.round((res.acked.size * 1000) / Math.max(1, res.elapsedMs)) };
    }),
  );
}

/** Deletes `names` through `member`; resolves to the failed answers and the deletes/s. */
export async function deleteOn(member: Member, names: readonly string[], concurrency = 16): Promise<{ bad: string[]; perSecond: number }> {
  const t = performance.now();
  const bad: string[] = [];
  await pool(names, concurrency, async (name) => {
    const r = await callRetryReset(member.client, "DELETE", `/api/v1/namespaces/default/services/${name}`);
    if (r.status !== 200 && r.status !== 202 && !(r.status === 404 && r.retried)) bad.push(`${name}: ${r.status} ${r.body?.message}`);
  });
  return { bad, perSecond: Math.round((names.length * 1000) / Math.max(1, performance.now() - t)) };
}

/** Rejections grouped by message (names stripped) for the summary and assertions. */
export function rejectionsByMessage(r: BurstResult): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of r.rejected.values()) {
    const k = v.replace(/\d+\.\d+\.\d+\.\d+/g, "<ip>").replace(/Service "[^"]*"/, 'Service "<name>"');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}
