/**
 * µs per decode of Service bodies: zod's safeParse against the compiled parser, and decodeObject as
 * it was (safeParse) against decodeObject now. Run from packages/api:
 * `node --import ../apiserver/src/storage/testdata/register-ts.mjs bench/decode.bench.ts`
 */
import type { z } from "zod";
import { decodeObject, dropNulls, safeParseCompiled, ServiceSchema, unknownFields } from "../src/index.ts";

// The body servicenet-up's wrk script posts (bench/service-up-wrk.bench.ts in @servicenet/apiserver).
const wrkBody = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "svc-1", labels: { app: "svc-1", tier: "backend" } },
  spec: { selector: { app: "svc-1" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
};

// What `kubectl apply` sends for a dual-stack Service: annotations, managedFields, several ports.
const kubectlBody = {
  apiVersion: "v1",
  kind: "Service",
  metadata: {
    name: "web",
    namespace: "default",
    labels: { app: "web", tier: "frontend", "app.kubernetes.io/part-of": "shop" },
    annotations: { "kubectl.kubernetes.io/last-applied-configuration": JSON.stringify({ spec: { ports: [{ port: 80 }] } }) },
    managedFields: [
      {
        manager: "kubectl-client-side-apply",
        operation: "Update",
        apiVersion: "v1",
        time: "2024-05-01T10:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:ports": { 'k:{"port":80,"protocol":"TCP"}': {} } } },
      },
    ],
  },
  spec: {
    ipFamilies: ["IPv4", "IPv6"],
    ipFamilyPolicy: "PreferDualStack",
    ports: [
      { name: "http", port: 80, protocol: "TCP", targetPort: "http" },
      { name: "https", port: 443, protocol: "TCP", targetPort: 8443 },
      { name: "metrics", port: 9090, protocol: "TCP", targetPort: 9090 },
    ],
    selector: { app: "web", tier: "frontend" },
    sessionAffinity: "None",
    type: "ClusterIP",
  },
};

/** decodeObject before the compiled parser: the same steps with zod's safeParse. */
function decodeBefore(schema: z.ZodType, body: unknown): unknown {
  const cleaned = dropNulls(body);
  const unknown = unknownFields(schema, cleaned);
  const parsed = schema.safeParse(cleaned);
  return parsed.success ? { ok: true, value: parsed.data, unknownFields: unknown } : { ok: false, error: parsed.error };
}

function perOp(fn: () => unknown, ms = 1500): number {
  for (let i = 0; i < 20000; i++) fn(); // warm up (JIT, memoised compile)
  let n = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < until) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / 1000 / n;
}

const rows: Record<string, Record<string, string>> = {};
for (const [name, body] of [
  ["wrk Service", wrkBody],
  ["kubectl Service", kubectlBody],
] as const) {
  const zod = perOp(() => ServiceSchema.safeParse(body));
  const compiled = perOp(() => safeParseCompiled(ServiceSchema, body));
  const before = perOp(() => decodeBefore(ServiceSchema, body));
  const after = perOp(() => decodeObject(ServiceSchema, body));
  rows[name] = {
    "safeParse µs": zod.toFixed(2),
    "compiled µs": compiled.toFixed(2),
    "decodeObject before µs": before.toFixed(2),
    "decodeObject after µs": after.toFixed(2),
  };
}
console.table(rows);
