/**
 * The load suite's workload: dual-stack Services, one IPv4 and one IPv6 EndpointSlice per Service
 * (a few endpoints each), a bounded-concurrency runner with a deadline, paged and unpaged list
 * timing, and percentiles.
 */
import type { RawClient } from "../fuzz/raw-client.ts";

/** The namespace the load lives in. */
export const loadNamespace = "load";

/** Service `i`: RequireDualStack for even, PreferDualStack for odd indexes. */
export function serviceBody(i: number): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: `svc-${i}`, labels: { app: `app-${i % 100}`, load: "true" } },
    spec: {
      ipFamilyPolicy: i % 2 === 0 ? "RequireDualStack" : "PreferDualStack",
      selector: { app: `app-${i}` },
      ports: [{ name: "http", port: 80, targetPort: 8080 }],
    },
  });
}

/** Endpoint address `k` of Service `i` in `family` (unique across the run). */
export function endpointIP(family: 4 | 6, i: number, k: number, perSlice: number): string {
  const n = i * perSlice + k;
  if (family === 4) return `10.${128 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`;
  return `fd00:10:244::${n.toString(16)}`;
}

/** The IPv4 or IPv6 EndpointSlice of Service `i` with `perSlice` ready endpoints. */
export function sliceBody(family: 4 | 6, i: number, perSlice: number): string {
  return JSON.stringify({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: `svc-${i}-ipv${family}`,
      labels: { "kubernetes.io/service-name": `svc-${i}`, "endpointslice.kubernetes.io/managed-by": "load.e2e" },
    },
    addressType: family === 4 ? "IPv4" : "IPv6",
    endpoints: Array.from({ length: perSlice }, (_, k) => ({
      addresses: [endpointIP(family, i, k, perSlice)],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: "Pod", namespace: loadNamespace, name: `pod-${i}-${k}` },
    })),
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  });
}

export interface PoolResult {
  done: number;
  ms: number;
  /** The first few failures (`index: message`). */
  errors: string[];
  errorCount: number;
  /** True when the deadline stopped the run before `n`. */
  cutShort: boolean;
}

/** Runs `fn(0..n-1)` with at most `concurrency` in flight; stops starting new ones after `deadline` (ms epoch). */
export async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>, deadline = Infinity): Promise<PoolResult> {
  const started = performance.now();
  const r: PoolResult = { done: 0, ms: 0, errors: [], errorCount: 0, cutShort: false };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      if (Date.now() > deadline) {
        r.cutShort = true;
        return;
      }
      const i = next++;
      try {
        await fn(i);
        r.done++;
      } catch (e) {
        r.errorCount++;
        if (r.errors.length < 5) r.errors.push(`${i}: ${String(e).slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  r.ms = performance.now() - started;
  return r;
}

/** POSTs `body` and throws unless the answer is 201. */
export async function create(client: RawClient, path: string, body: string): Promise<void> {
  const r = await client.send({ method: "POST", path, headers: { "Content-Type": "application/json", Accept: "application/json" }, body });
  if (r.status !== 201) throw new Error(`${r.status} ${r.body.toString("utf8").slice(0, 200)}`);
}

/** Lists `path` whole (limit 0) or page by page; returns items, pages, bytes and milliseconds. */
export async function timedList(
  client: RawClient,
  path: string,
  limit = 0,
): Promise<{ items: number; pages: number; bytes: number; ms: number }> {
  const started = performance.now();
  let items = 0;
  let pages = 0;
  let bytes = 0;
  let cont = "";
  do {
    const q = [limit > 0 ? `limit=${limit}` : "", cont ? `continue=${encodeURIComponent(cont)}` : ""].filter((s) => s !== "").join("&");
    const r = await client.send({ method: "GET", path: q ? `${path}?${q}` : path, headers: { Accept: "application/json" } });
    if (r.status !== 200) throw new Error(`list ${path}: ${r.status} ${r.body.toString("utf8").slice(0, 200)}`);
    bytes += r.body.length;
    const list = JSON.parse(r.body.toString("utf8")) as { items: unknown[]; metadata: { continue?: string } };
    items += list.items.length;
    pages++;
    cont = list.metadata.continue ?? "";
  } while (cont !== "");
  return { items, pages, bytes, ms: performance.now() - started };
}

/** The p-th percentile (0..100) of `xs` (nearest rank). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
