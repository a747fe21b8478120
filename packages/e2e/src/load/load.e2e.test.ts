/**
 * Load: `servicenet up` (SQLite, dual-stack v4v6) in a child process; 10,000 dual-stack Services
 * and 20,000 EndpointSlices (one IPv4 and one IPv6 per Service, 3 endpoints each: 60,000
 * endpoints) created with bounded concurrency; apiserver RSS (VmRSS of the child) before and after;
 * full and paged list latency; and watch fan-out: 50 watchers all receiving a burst of updates.
 * The create phases have deadlines so the suite stays within ~4 minutes on a busy 2-core machine;
 * it prints what fit.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servicenetUp, startChildApiServer, type ChildApiServer } from "../fuzz/child-apiserver.ts";
import { rawClient, getJSON, type RawClient } from "../fuzz/raw-client.ts";
import { openWatchers, waitForAll } from "./watch-fanout.ts";
import { create, loadNamespace, percentile, pool, serviceBody, sliceBody, timedList } from "./workload.ts";

const services = Number(process.env["LOAD_SERVICES"] ?? 10_000);
const perSlice = 3;
const concurrency = 16;
const watchers = 50;
const burst = 200;

const built = existsSync(servicenetUp);
if (!built) console.warn(`load: ${servicenetUp} is missing (run the build), skipping`);

const mib = (kib: number): number => Math.round(kib / 1024);

describe.skipIf(!built)("load: 10,000 dual-stack Services, 60,000 endpoints, 50 watchers", () => {
  let server: ChildApiServer;
  let client: RawClient;
  const rss: Record<string, number> = {};
  let createdServices = 0;
  beforeAll(async () => {
    server = await startChildApiServer(["--mode", "v4v6"]);
    client = rawClient(server.url, server.ca, server.token, { maxSockets: concurrency, timeoutMs: 60_000 });
    await create(client, "/api/v1/namespaces", JSON.stringify({ metadata: { name: loadNamespace } }));
    rss["start"] = server.rssKiB();
  });
  afterAll(async () => {
    client?.close();
    await server?.stop();
  });

  it("creates the Services and EndpointSlices", async () => {
    // Deadlines keep the suite near 4 minutes when the machine is busy; the summary says what fit.
    const deadline = Date.now() + 190_000;
    const doneAt: number[] = [];
    const svc = await pool(
      services,
      concurrency,
      async (i) => {
        await create(client, `/api/v1/namespaces/${loadNamespace}/services`, serviceBody(i));
        doneAt.push(performance.now());
      },
      deadline - 40_000,
    );
    // Creates/s per successive 1,000 Services: shows whether a create gets slower as they accumulate.
    const windows = Array.from({ length: Math.floor(doneAt.length / 1000) }, (_, k) =>
      Math.round(1000 / ((doneAt[k * 1000 + 999]! - (k === 0 ? doneAt[0]! : doneAt[k * 1000 - 1]!)) / 1000)),
    );
    createdServices = svc.done;
    rss["services"] = server.rssKiB();
    const slices = await pool(
      svc.done * 2,
      concurrency,
      (j) =>
        create(
          client,
          `/apis/discovery.k8s.io/v1/namespaces/${loadNamespace}/endpointslices`,
          sliceBody(j % 2 === 0 ? 4 : 6, j >> 1, perSlice),
        ),
      deadline,
    );
    rss["slices"] = server.rssKiB();
    console.log(
      `load create (target ${services} Services, ${services * 2} slices, ${services * 2 * perSlice} endpoints): ${svc.done} Services in ${Math.round(svc.ms)} ms (${Math.round(svc.done / (svc.ms / 1000))}/s, c${concurrency}; per 1,000: ${windows.join(", ")}/s)${svc.cutShort ? " CUT SHORT by the deadline" : ""}; ` +
        `${slices.done} EndpointSlices (${slices.done * perSlice} endpoints) in ${Math.round(slices.ms)} ms (${Math.round(slices.done / (slices.ms / 1000))}/s)${slices.cutShort ? " CUT SHORT by the deadline" : ""}; ` +
        `apiserver RSS ${mib(rss["start"]!)} -> ${mib(rss["services"])} (Services) -> ${mib(rss["slices"])} MiB (slices)`,
    );
    expect(svc.errors).toEqual([]);
    expect(slices.errors).toEqual([]);
    expect(svc.done).toBeGreaterThanOrEqual(Math.min(services, 1000));
    if (!slices.cutShort) expect(slices.done).toBe(svc.done * 2);
    // Every Service is dual-stack: RequireDualStack must get both families, PreferDualStack too here.
    const one = await getJSON<{ spec: { clusterIPs: string[]; ipFamilies: string[] } }>(
      client,
      `/api/v1/namespaces/${loadNamespace}/services/svc-0`,
    );
    expect(one.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(one.spec.clusterIPs).toHaveLength(2);
  });

  it("lists everything, whole and in pages", async () => {
    const results: string[] = [];
    for (const [what, path] of [
      ["services", "/api/v1/services"],
      ["endpointslices", "/apis/discovery.k8s.io/v1/endpointslices"],
    ] as const) {
      const whole = await timedList(client, path);
      const paged = await timedList(client, path, 500);
      expect(paged.items).toBe(whole.items);
      results.push(
        `${what} ${whole.items} items whole ${Math.round(whole.ms)} ms (${mib(whole.bytes / 1024)} MiB), limit=500 ${paged.pages} pages ${Math.round(paged.ms)} ms`,
      );
    }
    rss["lists"] = server.rssKiB();
    console.log(`load list: ${results.join("; ")}; apiserver RSS after lists ${mib(rss["lists"])} MiB`);
    expect(createdServices).toBeGreaterThan(0);
  });

  it(`fans a burst of ${burst} updates out to ${watchers} watchers`, async () => {
    const list = await getJSON<{ metadata: { resourceVersion: string } }>(client, `/api/v1/namespaces/${loadNamespace}/services?limit=1`);
    const tagOf = (o: Record<string, unknown>): string | undefined =>
      ((o["metadata"] as { labels?: Record<string, string> }).labels ?? {})["burst"];
    const ws = await openWatchers(
      server.url,
      server.ca,
      server.token,
      `/api/v1/namespaces/${loadNamespace}/services?watch=true&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=300`,
      watchers,
      tagOf,
    );
    try {
      const sentAt = new Map<string, number>();
      const tags = Array.from({ length: burst }, (_, i) => `b${i}`);
      const started = performance.now();
      const r = await pool(burst, 8, async (i) => {
        sentAt.set(tags[i]!, performance.now());
        const res = await client.send({
          method: "PATCH",
          path: `/api/v1/namespaces/${loadNamespace}/services/svc-${i % createdServices}`,
          headers: { "Content-Type": "application/merge-patch+json" },
          body: JSON.stringify({ metadata: { labels: { burst: tags[i] } } }),
        });
        if (res.status !== 200) throw new Error(`${res.status} ${res.body.toString().slice(0, 200)}`);
      });
      const missing = await waitForAll(ws, tags, 60_000);
      const lat = ws.flatMap((w) => tags.filter((t) => w.seen.has(t)).map((t) => w.seen.get(t)! - sentAt.get(t)!));
      const allIn = Math.max(...ws.flatMap((w) => [...w.seen.values()])) - started;
      console.log(
        `load watch: ${burst} updates in ${Math.round(r.ms)} ms, ${watchers} watchers, ${lat.length}/${burst * watchers} deliveries in ${Math.round(allIn)} ms, latency (update sent -> event received) p50 ${percentile(lat, 50).toFixed(1)} ms p99 ${percentile(lat, 99).toFixed(1)} ms max ${percentile(lat, 100).toFixed(1)} ms; apiserver RSS ${mib(server.rssKiB())} MiB`,
      );
      expect(r.errors).toEqual([]);
      expect(missing).toBe(0);
      expect(ws.flatMap((w) => w.problems)).toEqual([]);
    } finally {
      for (const w of ws) w.close();
    }
  });
});
