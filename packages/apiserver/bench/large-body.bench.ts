/**
 * The turns a near-limit request body (a Service of 60,000 labels, the flood e2e's; 0.7 MB of
 * JSON) holds the event loop for while it is decoded, in alternating rounds so that the machine's
 * load hits each alike: `decodeBody` in one synchronous step, its parse alone (`parseBody`, one
 * step of `decodeBodyInTurns` before and after the large maps were checked in turns), and
 * `decodeBodyInTurns` with its default budget (server/large-maps.ts); and the stored object's JSON
 * answer by `objectJSON` (one step) and `objectJSONInTurns`; by a timer probe between turns. The
 * write path's steps compare, in the same run, the object as a plain copy (its maps unmarked: the
 * steps as they were before util/json/string-maps.ts) with the object as decoded (its labels and
 * their managedFields set marked): the storage write (`encode` + `storedCopy` against
 * `encodeForStorage`), the SQLite engine's copy for watchers (`decodedCopy`), the create's
 * managedFields (`updateManagedFields`) and the answer. Writes bench/results-large-body.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/large-body.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TurnBudget } from "../src/util/eventloop/turn-budget.ts";
import { decodeBody, decodeBodyInTurns, parseBody } from "../src/server/codec.ts";
import { findResource } from "../src/server/resources.ts";
import { EncodedObjectCache } from "../src/server/encoded-cache.ts";
import { objectJSON, objectJSONInTurns } from "../src/server/present.ts";
import { measureTurns, type TurnFigures } from "./turn-probe.ts";
import { decodedCopy, encode, encodeForStorage, storedCopy } from "../src/storage/codec.ts";
import type { KubeObject } from "../src/storage/index.ts";
import { updateManagedFields, type JSONObject } from "../src/server/patch/index.ts";

const def = findResource("", "v1", "services");
if (!def) throw new Error("no services resource");

const labels = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`l${i.toString(36)}`, "v"]));
const body = Buffer.from(
  JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name: "near-limit", labels }, spec: { ports: [{ port: 80 }] } }),
);

const stored = decodeBody(def, body, "json", "Warn").obj;
stored.metadata = { ...stored.metadata, namespace: "flood", uid: "u", resourceVersion: "42" };

// The write path's object: as decodeBodyInTurns and the create's managedFields make it (marked), and as a plain copy (unmarked).
const decoded = (await decodeBodyInTurns(def, body, "json", "Warn", new TurnBudget())).obj;
const manage = (o: KubeObject): KubeObject =>
  updateManagedFields(undefined, o as unknown as JSONObject, "kubectl", "Update", "v1", new Date(0)) as unknown as KubeObject;
const marked = manage(decoded);
marked.metadata = { ...marked.metadata, namespace: "flood", uid: "u" };
const plain = JSON.parse(JSON.stringify(marked)) as KubeObject;
const decodedPlain = JSON.parse(JSON.stringify(decoded)) as KubeObject;
if (encode(plain) !== (await encodeForStorage(marked, new TurnBudget())).value) throw new Error("the stored bytes differ");

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kinds = {
  "decodeBody (one step)": () => decodeBody(def, body, "json", "Warn"),
  "parseBody alone": () => parseBody(body, "json"),
  decodeBodyInTurns: () => decodeBodyInTurns(def, body, "json", "Warn", new TurnBudget()),
  // The answer of the stored object, each with an empty encoded cache (a first encoding).
  "objectJSON (one step)": () => objectJSON(def, stored, new EncodedObjectCache()),
  objectJSONInTurns: () => objectJSONInTurns(def, stored, new EncodedObjectCache(), new TurnBudget()),
  "write: managedFields, before (unmarked labels)": () => manage(decodedPlain),
  "write: managedFields, after (marked labels)": () => manage(decoded),
  "write: storage encode + copy, before (one step)": () => storedCopy(plain, encode(plain)),
  "write: storage encode + copy, after (encodeForStorage)": () => encodeForStorage(marked, new TurnBudget()),
  "write: SQLite watch copy, before": () => decodedCopy(plain),
  "write: SQLite watch copy, after": () => decodedCopy(marked),
  "write: answer, before": () => objectJSONInTurns(def, plain, new EncodedObjectCache(), new TurnBudget()),
  "write: answer, after": () => objectJSONInTurns(def, marked, new EncodedObjectCache(), new TurnBudget()),
};
const runs = new Map<string, TurnFigures[]>(Object.keys(kinds).map((k) => [k, []]));
await measureTurns(kinds.decodeBodyInTurns); // warm up
for (let r = 0; r < 7; r++) for (const [k, f] of Object.entries(kinds)) runs.get(k)!.push(await measureTurns(f));

const name = "near-limit Service (60,000 labels, 0.7 MB body) decode and answer (median of 7)";
const results = [...runs].flatMap(([k, xs]) => [
  { name, metric: `${k}: CPU ms`, value: Math.round(median(xs.map((x) => x.cpuMs))), unit: "ms" },
  { name, metric: `${k}: longest turn`, value: Math.round(median(xs.map((x) => x.maxTurnMs))), unit: "ms" },
]);
// Before/after of each write step, in this run: how much shorter its longest turn became.
const turnOf = (k: string): number => median(runs.get(k)!.map((x) => x.maxTurnMs));
for (const before of Object.keys(kinds).filter((k) => k.startsWith("write: ") && / before/.test(k))) {
  const step = before.replace(/, before.*$/, "");
  const after = Object.keys(kinds).find((k) => k.startsWith(`${step}, after`))!;
  results.push({
    name,
    metric: `${step}: longest turn before / after`,
    value: Number((turnOf(before) / turnOf(after)).toFixed(1)),
    unit: "x",
  });
}
const doc = {
  env: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "", loadavg1m: loadavg()[0], date: new Date().toISOString() },
  results,
};
console.log(JSON.stringify(results, null, 1));
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-large-body.json"), JSON.stringify(doc, null, 2) + "\n");
