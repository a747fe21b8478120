/**
 * ValidatingAdmissionPolicy benchmark (reported, not asserted): Service creates per second over
 * HTTP against the in-memory test environment, without any policy and then with one
 * ValidatingAdmissionPolicy and binding that match every Service create (one CEL validation), in
 * the same run and process. Concurrency 8, `ROUNDS` Services per phase (default 2000).
 * Writes bench/results-admission-policy.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/admission-policy.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestEnvironment, type TestEnvironment } from "../src/envtest/index.ts";

const rounds = Number(process.env["ROUNDS"] ?? 2000);
const concurrency = 8;

async function post(env: TestEnvironment, path: string, body: unknown, want = 201): Promise<void> {
  const res = await fetch(`${env.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== want) throw new Error(`POST ${path}: ${res.status} ${text}`);
}

/** Creates `n` Services named `<prefix>-<i>` with `concurrency` in flight; creates per second. */
async function createRate(env: TestEnvironment, prefix: string, n: number): Promise<number> {
  let next = 0;
  const t0 = process.hrtime.bigint();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      await post(env, "/api/v1/namespaces/default/services", { metadata: { name: `${prefix}-${i}` }, spec: { ports: [{ port: 80 }] } });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function main(): Promise<void> {
  const env = await startTestEnvironment({ serviceClusterIPRange: "10.0.0.0/16" });
  try {
    await createRate(env, "warm", 200);
    const without = await createRate(env, "plain", rounds);
    await post(env, "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", {
      metadata: { name: "no-nodeport" },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["services"] }] },
        validations: [{ expression: "object.spec.type != 'NodePort'" }],
      },
    });
    await post(env, "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", {
      metadata: { name: "no-nodeport" },
      spec: { policyName: "no-nodeport", validationActions: ["Deny"] },
    });
    // In effect once a NodePort Service is refused.
    for (;;) {
      const res = await fetch(`${env.url}/api/v1/namespaces/default/services?dryRun=All`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ metadata: { name: "probe" }, spec: { type: "NodePort", ports: [{ port: 80 }] } }),
      });
      await res.text();
      if (res.status === 422) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const withPolicy = await createRate(env, "policed", rounds);
    const result = {
      date: new Date().toISOString(),
      cpus: cpus().length,
      loadavg: loadavg(),
      rounds,
      concurrency,
      serviceCreatesPerSecond: { withoutPolicy: Math.round(without), withOneValidatingAdmissionPolicy: Math.round(withPolicy) },
      ratio: Number((withPolicy / without).toFixed(3)),
    };
    console.log(JSON.stringify(result, null, 2));
    writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-admission-policy.json"), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await env.stop();
  }
}

await main();
