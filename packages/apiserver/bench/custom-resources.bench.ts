/**
 * Custom resources benchmark (reported; the CRD target is reported as met or not): in one run and
 * process, over HTTP against the in-memory test environment, creates per second of
 *   - Services (the built-in baseline),
 *   - a custom resource without rules,
 *   - the same with one CEL `x-kubernetes-validations` rule,
 *   - the same with one ValidatingAdmissionPolicy bound to its creates,
 * and the time from POSTing a CRD until it is Established and its first object is created (median
 * and p99 over `CRDS` CRDs, default 20; target <= 100 ms), stage by stage (`crd-establish.ts`), with
 * the process's CPU time per CRD. Concurrency 8, `ROUNDS` objects per phase (default 1000). The
 * machine may be shared: compare the ratios. `CPU_PROFILE=<file>` writes a V8 CPU profile of the
 * CRD loop (open it in Chrome's DevTools). Writes bench/results-custom-resources.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/custom-resources.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestEnvironment, type TestEnvironment } from "../src/envtest/index.ts";
import { ConditionWatch, stages, timeStages, type Stage, type StageTimes } from "./crd-establish.ts";

const rounds = Number(process.env["ROUNDS"] ?? 1000);
const crdCount = Number(process.env["CRDS"] ?? 20);
const concurrency = 8;
const targetMs = 100;

async function post(env: TestEnvironment, path: string, body: unknown): Promise<number> {
  const res = await fetch(`${env.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

async function mustPost(env: TestEnvironment, path: string, body: unknown): Promise<void> {
  const status = await post(env, path, body);
  if (status !== 201) throw new Error(`POST ${path}: ${status}`);
}

/** Creates `n` objects from `make(i)` with `concurrency` in flight; creates per second. */
async function createRate(env: TestEnvironment, path: string, n: number, make: (i: number) => unknown): Promise<number> {
  let next = 0;
  const t0 = process.hrtime.bigint();
  const worker = async () => {
    for (let i = next++; i < n; i = next++) await mustPost(env, path, make(i));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

/** A namespaced CRD `<plural>.bench.example.com` with `spec.replicas` and, when given, one CEL rule on spec. */
const kindOf = (plural: string) => plural[0]!.toUpperCase() + plural.slice(1, -1);

function crd(plural: string, rule?: string): unknown {
  const kind = kindOf(plural);
  const spec = {
    type: "object",
    properties: { replicas: { type: "integer" } },
    ...(rule ? { "x-kubernetes-validations": [{ rule }] } : {}),
  };
  return {
    metadata: { name: `${plural}.bench.example.com` },
    spec: {
      group: "bench.example.com",
      scope: "Namespaced",
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec } } } }],
    },
  };
}

const object = (plural: string, name: string) => ({
  apiVersion: "bench.example.com/v1",
  kind: kindOf(plural),
  metadata: { name },
  spec: { replicas: 1 },
});
const crPath = (plural: string) => `/apis/bench.example.com/v1/namespaces/default/${plural}`;

/** POST a CRD, then create one object until the create succeeds: milliseconds from the POST. */
async function establishedAndServed(env: TestEnvironment, plural: string, rule?: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  await mustPost(env, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd(plural, rule));
  while ((await post(env, crPath(plural), object(plural, "first"))) !== 201) await new Promise((r) => setImmediate(r));
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Waits until a policy refuses an object with replicas 0 (its binding is in effect). */
async function policyInEffect(env: TestEnvironment, plural: string): Promise<void> {
  const probe = { ...object(plural, "probe"), spec: { replicas: 0 } };
  while ((await post(env, `${crPath(plural)}?dryRun=All`, probe)) !== 422) await new Promise((r) => setTimeout(r, 10));
}

async function createsPerSecond(env: TestEnvironment) {
  await establishedAndServed(env, "plains");
  await establishedAndServed(env, "ruleds", "self.replicas >= 0");
  await establishedAndServed(env, "policeds");
  await mustPost(env, "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", {
    metadata: { name: "replicas" },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: ["bench.example.com"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["policeds"] }],
      },
      validations: [{ expression: "object.spec.replicas > 0" }],
    },
  });
  await mustPost(env, "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", {
    metadata: { name: "replicas" },
    spec: { policyName: "replicas", validationActions: ["Deny"] },
  });
  await policyInEffect(env, "policeds");
  const service = (i: number) => ({ metadata: { name: `s-${i}` }, spec: { ports: [{ port: 80 }] } });
  await createRate(env, "/api/v1/namespaces/default/services", 100, (i) => ({ ...service(i), metadata: { name: `warm-${i}` } }));
  await createRate(env, crPath("plains"), 100, (i) => object("plains", `warm-${i}`));
  return {
    services: await createRate(env, "/api/v1/namespaces/default/services", rounds, service),
    customResources: await createRate(env, crPath("plains"), rounds, (i) => object("plains", `o-${i}`)),
    withCELRule: await createRate(env, crPath("ruleds"), rounds, (i) => object("ruleds", `o-${i}`)),
    withPolicy: await createRate(env, crPath("policeds"), rounds, (i) => object("policeds", `o-${i}`)),
  };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;

/** Times `crdCount` CRDs one after another; the CPU profile of the loop goes to `profilePath`. */
async function establishAll(env: TestEnvironment, profilePath: string | undefined): Promise<{ times: StageTimes[]; cpuMs: number }> {
  const watch = new ConditionWatch();
  await watch.start(env);
  const session = new Session();
  if (profilePath) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const cpu0 = process.cpuUsage();
  const times: StageTimes[] = [];
  try {
    for (let i = 0; i < crdCount; i++) {
      const plural = `things${i}s`;
      times.push(
        await timeStages(env, watch, {
          name: `${plural}.bench.example.com`,
          crd: crd(plural),
          objectPath: crPath(plural),
          object: object(plural, "first"),
          group: "bench.example.com",
          version: "v1",
          plural,
        }),
      );
    }
  } finally {
    await watch.stop();
  }
  const cpu = process.cpuUsage(cpu0);
  if (profilePath) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(profilePath, JSON.stringify(profile));
    session.disconnect();
  }
  return { times, cpuMs: (cpu.user + cpu.system) / 1000 / crdCount };
}

const round1 = (x: number) => Number(x.toFixed(1));

async function main(): Promise<void> {
  const env = await startTestEnvironment({ serviceClusterIPRange: "10.0.0.0/16" });
  try {
    const rates = await createsPerSecond(env);
    const { times, cpuMs } = await establishAll(env, process.env["CPU_PROFILE"]);
    // Established and served: both the condition and the first object.
    const establish = times.map((t) => Math.max(t.established, t.served));
    const median = quantile(establish, 0.5);
    const p99 = quantile(establish, 0.99);
    const byStage = (q: number) =>
      Object.fromEntries(
        stages.map((st) => [
          st,
          round1(
            quantile(
              times.map((t) => t[st]),
              q,
            ),
          ),
        ]),
      ) as Record<Stage, number>;
    const name = "custom resources: creates (in-memory envtest, HTTP, c8)";
    const crdName = `CRD POST to Established and first object created (${crdCount} CRDs)`;
    const doc = {
      env: { date: new Date().toISOString(), cpus: cpus().length, loadavg: loadavg(), rounds, concurrency },
      results: [
        { name, metric: "Service creates/s", value: Math.round(rates.services), unit: "1/s" },
        { name, metric: "custom resource creates/s", value: Math.round(rates.customResources), unit: "1/s" },
        { name, metric: "custom resource creates/s, one CEL rule", value: Math.round(rates.withCELRule), unit: "1/s" },
        { name, metric: "custom resource creates/s, one ValidatingAdmissionPolicy", value: Math.round(rates.withPolicy), unit: "1/s" },
        { name: crdName, metric: "median", value: Number(median.toFixed(1)), unit: "ms" },
        { name: crdName, metric: "p99", value: Number(p99.toFixed(1)), unit: "ms" },
        { name: crdName, metric: "CPU per CRD (whole process: server and client)", value: round1(cpuMs), unit: "ms" },
      ],
      targets: [
        { target: `a CRD is Established and served in <= ${targetMs} ms (p99)`, measured: `${p99.toFixed(1)} ms`, met: p99 <= targetMs },
      ],
      ratios: {
        customResourceToService: Number((rates.customResources / rates.services).toFixed(3)),
        celRuleToPlain: Number((rates.withCELRule / rates.customResources).toFixed(3)),
        policyToPlain: Number((rates.withPolicy / rates.customResources).toFixed(3)),
      },
      establishMs: establish.map(round1),
      // Milliseconds from the CRD POST to each stage (see crd-establish.ts).
      stagesMs: { median: byStage(0.5), p99: byStage(0.99) },
      stagesPerCRD: times.map((t) => Object.fromEntries(stages.map((st) => [st, round1(t[st])]))),
    };
    console.log(JSON.stringify(doc, null, 2));
    writeFileSync(join(dirname(fileURLToPath(import.meta.url)), "results-custom-resources.json"), `${JSON.stringify(doc, null, 2)}\n`);
  } finally {
    await env.stop();
  }
}

await main();
