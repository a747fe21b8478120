/**
 * The flood e2e's LISTs in process: 30 concurrent LISTs of 5,000 stored Services on SQLite, each
 * read from storage, decoded and streamed as the HTTP LIST does (server/rest.ts), with its items
 * decoded per LIST and with the read-only LIST's shared decodings (storage ListOptions.readOnly),
 * in alternating rounds so that the machine's load hits both alike. Per round: CPU ms per LIST, the
 * longest turn of the loop (a setImmediate probe), garbage collection (pauses' sum and longest,
 * PerformanceObserver) and the answers' bytes, which must be the same. Writes
 * bench/results-list-read.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/list-read.bench.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { EncodedObjectCache } from "../src/server/encoded-cache.ts";
import { writeListStreaming } from "../src/server/list-stream.ts";
import { streamedList } from "../src/server/present.ts";
import { findResource } from "../src/server/resources.ts";
import { createStore, type KubeObject } from "../src/storage/index.ts";
import { measureTurns } from "./turn-probe.ts";

const def = findResource("", "v1", "services");
if (!def) throw new Error("no services resource");
const objects = 5000;
const listers = 30;
const rounds = 5;

/** A Service as the flood's creates store it (allocated IP, defaults, a manager's fields). */
function service(i: number): KubeObject {
  const name = `f-${i}`;
  const ip = `10.96.${(i >> 8) & 255}.${i & 255}`;
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name,
      namespace: "flood",
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      creationTimestamp: "2026-12-06T00:00:00Z",
      managedFields: [
        {
          manager: "node-fetch",
          operation: "Update",
          apiVersion: "v1",
          time: "2026-12-06T00:00:00Z",
          fieldsType: "FieldsV1",
          fieldsV1: { "f:spec": { "f:ports": { ".": {}, 'k:{"port":80,"protocol":"TCP"}': {} }, "f:selector": {} } },
        },
      ],
    },
    spec: {
      ports: [{ protocol: "TCP", port: 80, targetPort: 8080 }],
      selector: { app: name },
      clusterIP: ip,
      clusterIPs: [ip],
      type: "ClusterIP",
      sessionAffinity: "None",
      ipFamilies: ["IPv4"],
      ipFamilyPolicy: "SingleStack",
      internalTrafficPolicy: "Cluster",
    },
    status: { loadBalancer: {} },
  };
}

/** A response that keeps only the length of what is written, as a fast client would read it. */
function sink(): ServerResponse & { bytes: number } {
  const w = new Writable({
    write: (c: Buffer | string, _e, cb) => {
      w.bytes += c.length;
      cb();
    },
  }) as unknown as ServerResponse & { headersSent: boolean; bytes: number };
  Object.assign(w, {
    bytes: 0,
    headersSent: false,
    req: { headers: {} },
    writeHead: () => ((w.headersSent = true), w),
    setHeader: () => w,
  });
  return w;
}

const dir = mkdtempSync(join(tmpdir(), "servicenet-bench-list-read-"));
const store = await createStore({ backend: "sqlite", path: join(dir, "state.db") });
await Promise.all(
  Array.from({ length: 16 }, async (_, w) => {
    for (let i = w; i < objects; i += 16) await store.create(`/registry/services/specs/flood/f-${i}`, service(i));
  }),
);
const cache = new EncodedObjectCache();

interface Round {
  cpuMsPerList: number;
  maxTurnMs: number;
  gcMs: number;
  gcMaxMs: number;
  bytes: number;
}

/** `listers` concurrent LISTs of the namespace, as the LIST handler serves them. */
async function round(readOnly: boolean): Promise<Round> {
  const pauses: number[] = [];
  const gc = new PerformanceObserver((l) => pauses.push(...l.getEntries().map((e) => e.duration)));
  gc.observe({ entryTypes: ["gc"] });
  const sizes: number[] = [];
  const f = await measureTurns(() =>
    Promise.all(
      Array.from({ length: listers }, async () => {
        const list = await store.list("/registry/services/specs/flood/", { readOnly });
        const res = sink();
        await writeListStreaming(res, 200, {}, streamedList(def!, list, "json", cache));
        sizes.push(res.bytes);
      }),
    ),
  );
  await new Promise((r) => setTimeout(r, 50));
  gc.disconnect();
  if (new Set(sizes).size !== 1) throw new Error(`answers differ in length: ${[...new Set(sizes)].join(", ")}`);
  return {
    cpuMsPerList: f.cpuMs / listers,
    maxTurnMs: f.maxTurnMs,
    gcMs: pauses.reduce((a, b) => a + b, 0),
    gcMaxMs: Math.max(0, ...pauses),
    bytes: sizes[0]!,
  };
}

await round(false); // the JIT, the statements and the encoded cache, as after the first LIST
const copies: Round[] = [];
const shared: Round[] = [];
for (let r = 0; r < rounds; r++) {
  copies.push(await round(false));
  shared.push(await round(true));
}
await store.close();
rmSync(dir, { recursive: true, force: true });
if (copies[0]!.bytes !== shared[0]!.bytes) throw new Error("the two ways answer different bytes");

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fig = (xs: Round[], k: keyof Round): number => Math.round(median(xs.map((x) => x[k])) * 10) / 10;
const name = `${listers} concurrent LISTs of ${objects.toLocaleString("en")} Services on SQLite (median of ${rounds} rounds)`;
const results = (["cpuMsPerList", "maxTurnMs", "gcMs", "gcMaxMs"] as const).flatMap((k) => {
  const label = { cpuMsPerList: "CPU ms per LIST", maxTurnMs: "longest turn", gcMs: "GC pauses per round", gcMaxMs: "longest GC pause" }[k];
  const a = fig(copies, k);
  const b = fig(shared, k);
  return [
    { name, metric: `${label}, items decoded per LIST`, value: a, unit: "ms" },
    { name, metric: `${label}, shared decodings (readOnly)`, value: b, unit: "ms" },
    { name, metric: `${label}, ratio shared / per LIST`, value: Math.round((b / a) * 100) / 100, unit: "" },
  ];
});
const doc = {
  env: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "", loadavg1m: loadavg()[0], date: new Date().toISOString() },
  results,
};
for (const r of results) console.log(`${r.metric}: ${r.value} ${r.unit}`);
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-list-read.json"), JSON.stringify(doc, null, 2) + "\n");
