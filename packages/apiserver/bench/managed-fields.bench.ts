/**
 * managedFields bookkeeping benchmark: µs per updateManagedFields call for
 * - a Service create (the body bench/http-load.ts POSTs, after v1 defaulting and allocation), and
 * - an update of that stored Service by another manager with one label changed.
 * Quick (a few seconds); writes bench/results-managed-fields.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/managed-fields.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JSONObject } from "../src/server/patch/json-value.ts";
import { updateManagedFields } from "../src/server/patch/managed-fields.ts";

const now = new Date("2026-12-02T10:00:00Z");
const later = new Date("2026-12-02T11:00:00Z");

/** bench/http-load.ts's body for Service `i`, as the registry sees it after defaulting. */
function createBody(i: number): JSONObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: `svc-${i}`, namespace: "default", labels: { app: `svc-${i}`, tier: "backend" } },
    spec: {
      selector: { app: `svc-${i}` },
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
      clusterIP: "10.0.12.34",
      clusterIPs: ["10.0.12.34"],
      ipFamilies: ["IPv4"],
      ipFamilyPolicy: "SingleStack",
      sessionAffinity: "None",
      type: "ClusterIP",
      internalTrafficPolicy: "Cluster",
    },
    status: { loadBalancer: {} },
  };
}

/** The stored object (managedFields, uid, resourceVersion) and a PUT body that changes one label. */
function updatePair(): [JSONObject, JSONObject] {
  const created = updateManagedFields(undefined, createBody(1), "kubectl-create", "Update", "v1", now);
  const meta = created.metadata as JSONObject;
  const stored: JSONObject = {
    ...created,
    metadata: { ...meta, uid: "3f1c7a52-1111-4222-8333-944455556666", resourceVersion: "12345", creationTimestamp: "2026-12-02T10:00:00Z" },
  };
  // Separate copies, as a stored object and a decoded request body are.
  const next = structuredClone(stored);
  ((next.metadata as JSONObject).labels as JSONObject).tier = "frontend";
  return [structuredClone(stored), next];
}

/** Mean µs/op over `ms` of calls after a warm-up; the best of three rounds. */
function usPerOp(f: () => void, ms = 700): number {
  for (let i = 0; i < 2000; i++) f();
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    let n = 0;
    const start = performance.now();
    let t = start;
    while (t - start < ms) {
      for (let j = 0; j < 100; j++) f();
      n += 100;
      t = performance.now();
    }
    best = Math.min(best, ((t - start) * 1000) / n);
  }
  return Math.round(best * 100) / 100;
}

const bodies = Array.from({ length: 64 }, (_, i) => createBody(i));
const [stored, next] = updatePair();
let i = 0;
const results = [
  {
    name: "updateManagedFields create (Service, defaulted)",
    value: usPerOp(() => updateManagedFields(undefined, bodies[i++ & 63] as JSONObject, "kubectl-create", "Update", "v1", now)),
    unit: "µs/op",
  },
  {
    name: "updateManagedFields update (one label changed, other manager)",
    value: usPerOp(() => updateManagedFields(stored, next, "kubectl-edit", "Update", "v1", later)),
    unit: "µs/op",
  },
];
const out = {
  env: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, loadavg1m: loadavg()[0], date: new Date().toISOString() },
  results,
};
console.log(JSON.stringify(out, null, 2));
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-managed-fields.json"), `${JSON.stringify(out, null, 2)}\n`);
