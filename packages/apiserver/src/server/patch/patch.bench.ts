/**
 * Patch and OpenAPI benchmark: operations per second for each patch type on a
 * Service with two ports, and the one-time cost of generating the OpenAPI documents.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs src/server/patch/patch.bench.ts`
 */
import * as core from "@servicenet/api/core/v1";
import * as net from "@servicenet/api/networking/v1";
import { buildOpenAPI, encodeOpenAPIV2Proto } from "../openapi/index.ts";
import { applyPatch } from "./apply-patch.ts";
import type { JSONObject } from "./json-value.ts";
import { updateManagedFields } from "./managed-fields.ts";

const now = new Date("2026-01-01T00:00:00Z");
const base: JSONObject = updateManagedFields(
  undefined,
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web", namespace: "default", labels: { app: "web", tier: "fe" } },
    spec: {
      ports: [
        { name: "http", port: 80, protocol: "TCP", targetPort: 8080 },
        { name: "https", port: 443, protocol: "TCP", targetPort: 8443 },
      ],
      selector: { app: "web" },
      type: "ClusterIP",
    },
  },
  "kubectl-create",
  "Update",
  "v1",
  now,
);

const cases: [string, string][] = [
  ["application/json-patch+json", '[{"op":"replace","path":"/spec/ports/0/targetPort","value":9090}]'],
  ["application/merge-patch+json", '{"metadata":{"labels":{"v":"2"}}}'],
  [
    "application/strategic-merge-patch+json",
    '{"spec":{"$setElementOrder/ports":[{"port":80},{"port":443}],"ports":[{"port":80,"targetPort":9090}]}}',
  ],
  [
    "application/apply-patch+yaml",
    '{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80,"targetPort":8080}]}}',
  ],
];

function opsPerSecond(f: () => void, ms = 500): number {
  for (let i = 0; i < 200; i++) f();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    f();
    n++;
  }
  return Math.round((n * 1000) / (performance.now() - start));
}

const results: Record<string, number> = {};
for (const [type, body] of cases) {
  results[type] = opsPerSecond(() => applyPatch(type, base, body, { fieldManager: "bench", schemaKind: "Service", now }));
}
const resources = [
  {
    group: "",
    version: "v1",
    kind: "Service",
    resource: "services",
    namespaced: true,
    schema: core.ServiceSchema,
    listSchema: core.ServiceListSchema,
  },
  { group: "", version: "v1", kind: "Pod", resource: "pods", namespaced: true, schema: core.PodSchema, listSchema: core.PodListSchema },
  {
    group: "networking.k8s.io",
    version: "v1",
    kind: "ServiceCIDR",
    resource: "servicecidrs",
    namespaced: false,
    schema: net.ServiceCIDRSchema,
  },
];
let t = performance.now();
const docs = buildOpenAPI(resources);
results["openapi build ms (cold)"] = Math.round(performance.now() - t);
t = performance.now();
encodeOpenAPIV2Proto(docs.v2);
results["openapi v2 protobuf ms (cold)"] = Math.round(performance.now() - t);
console.log(JSON.stringify({ opsPerSecond: results, node: process.version }, null, 2));
