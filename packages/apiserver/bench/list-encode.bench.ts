/**
 * What a LIST of 5,000 Services and one of 60,000 labels (1.4 MB stored, the flood e2e's near-limit
 * object) costs the event loop to encode, with and without the resource's encoded cache
 * (server/encoded-cache.ts), in alternating rounds so that the machine's load hits both alike:
 * CPU ms per LIST and its longest synchronous step (one turn of the loop). The items are fresh
 * copies per LIST, as storage decodes them. Writes bench/results-list-encode.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/list-encode.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import type { ServerResponse } from "node:http";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EncodedObjectCache } from "../src/server/encoded-cache.ts";
import { writeListStreaming } from "../src/server/list-stream.ts";
import { streamedList } from "../src/server/present.ts";
import { findResource } from "../src/server/resources.ts";
import type { KubeObject } from "../src/storage/index.ts";
import { measureTurns, type TurnFigures } from "./turn-probe.ts";

const def = findResource("", "v1", "services");
if (!def) throw new Error("no services resource");

function service(i: number, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: `f-${i}`, namespace: "flood", uid: `uid-${i}`, resourceVersion: String(100 + i), labels },
    spec: {
      selector: { app: `f-${i}` },
      ports: [{ protocol: "TCP", port: 80, targetPort: 8080 }],
      clusterIP: "10.0.0.1",
      type: "ClusterIP",
    },
    status: { loadBalancer: {} },
  };
}

const big = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`l${i.toString(36)}`, "v"]));
// The stored values, as JSON text: each LIST decodes its own copies.
const stored = [
  ...Array.from({ length: 5000 }, (_, i) => JSON.stringify(service(i, { app: `f-${i}` }))),
  JSON.stringify(service(5000, big)),
];

/** A response that discards what is written, as a fast client would read it. */
function sink(): ServerResponse {
  const w = new Writable({ write: (_c, _e, cb) => cb() }) as unknown as ServerResponse & { headersSent: boolean };
  Object.assign(w, { headersSent: false, req: { headers: {} }, writeHead: () => ((w.headersSent = true), w), setHeader: () => w });
  return w;
}

/** CPU ms of one LIST and its longest turn, measured by a timer probe between the list's turns. */
async function oneList(cache: EncodedObjectCache | undefined): Promise<TurnFigures> {
  const items = stored.map((s) => JSON.parse(s) as KubeObject);
  return measureTurns(() => writeListStreaming(sink(), 200, {}, streamedList(def!, { items, resourceVersion: "9999" }, "json", cache)));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cache = new EncodedObjectCache();
const rounds = 7;
const without: { cpuMs: number; maxTurnMs: number }[] = [];
const withCache: { cpuMs: number; maxTurnMs: number }[] = [];
await oneList(cache); // fills the cache, as the first LIST after a write does
for (let r = 0; r < rounds; r++) {
  without.push(await oneList(undefined));
  withCache.push(await oneList(cache));
}
const fig = (xs: { cpuMs: number; maxTurnMs: number }[]) => ({
  cpuMs: Math.round(median(xs.map((x) => x.cpuMs))),
  maxTurnMs: Math.round(median(xs.map((x) => x.maxTurnMs))),
});
const a = fig(without);
const b = fig(withCache);
const name = "LIST of 5,000 Services + one of 60,000 labels, encode (median of 7)";
const doc = {
  env: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "", loadavg1m: loadavg()[0], date: new Date().toISOString() },
  results: [
    { name, metric: "CPU ms per LIST without the encoded cache", value: a.cpuMs, unit: "ms" },
    { name, metric: "CPU ms per LIST with the encoded cache", value: b.cpuMs, unit: "ms" },
    { name, metric: "longest turn without the encoded cache", value: a.maxTurnMs, unit: "ms" },
    { name, metric: "longest turn with the encoded cache", value: b.maxTurnMs, unit: "ms" },
  ],
};
console.log(JSON.stringify(doc.results));
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-list-encode.json"), JSON.stringify(doc, null, 2) + "\n");
