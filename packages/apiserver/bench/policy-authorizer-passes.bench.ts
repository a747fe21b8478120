/**
 * The `authorizer` CEL library against an authorizer that answers later (the Webhook authorizer):
 * one policy whose N validations each make one distinct check (`authorizer.requestResource.
 * subresource('s<i>').check('get').allowed()`), evaluated as the ValidatingAdmissionPolicy plugin
 * does (a per-request CachingAuthorizer, the policy evaluated until no decision is pending). Reports
 * the policy evaluations (passes) per request and the time per request with the decisions answered
 * at once by a resolved promise, so the cost of the passes themselves shows (reported, not
 * asserted). Each size runs twice in the same process: as the plugin evaluates (the evaluator marks
 * each top-level expression, independent checks are fetched together) and without the marks (one
 * decision per pass, as before the marks), and the ratio of the two times is reported.
 * Writes bench/results-policy-authorizer-passes.json.
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/policy-authorizer-passes.bench.ts`.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import type { Attributes } from "../src/admission/attributes.ts";
import { CachingAuthorizer } from "../src/admission/plugin/policy/validating/caching-authorizer.ts";
import { compilePolicy } from "../src/admission/plugin/policy/validating/compile.ts";
import { validate } from "../src/admission/plugin/policy/validating/validator.ts";
import type { Authorizer } from "../src/authorization/authorizer/interfaces.ts";

const requests = Number(process.env["ROUNDS"] ?? 300);

const policy = (n: number): ValidatingAdmissionPolicy => ({
  metadata: { name: `checks-${n}` },
  spec: {
    validations: Array.from({ length: n }, (_, i) => ({
      expression: `authorizer.requestResource.subresource('s${i}').check('get').allowed()`,
    })),
  },
});

const request: Attributes = {
  operation: "CREATE",
  name: "cm",
  namespace: "default",
  resource: { group: "", version: "v1", resource: "configmaps" },
  subresource: "",
  kind: { group: "", version: "v1", kind: "ConfigMap" },
  object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", namespace: "default" } },
  dryRun: false,
  userInfo: { username: "alice", uid: "1234", groups: ["system:authenticated"] },
};

/** Passes and microseconds per request for a policy of `n` checks. */
async function measure(
  n: number,
  marked: boolean,
): Promise<{ passesPerRequest: number; microsPerRequest: number; sarsPerRequest: number }> {
  const compiled = compilePolicy(policy(n));
  let sars = 0;
  const later: Authorizer = { authorize: () => (sars++, Promise.resolve({ decision: "Allow", reason: "" })) };
  let passes = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) {
    const authz = new CachingAuthorizer(later);
    const r = await authz.evaluate(
      () => (passes++, validate(compiled, request, null, null, "Fail", authz.authorize, marked ? authz.beginExpression : undefined)),
    );
    if (r.decisions.some((d) => d.action !== "admit")) throw new Error(JSON.stringify(r.decisions));
  }
  const micros = Number(process.hrtime.bigint() - t0) / 1e3 / requests;
  return { passesPerRequest: passes / requests, microsPerRequest: Math.round(micros), sarsPerRequest: sars / requests };
}

async function main(): Promise<void> {
  await measure(4, true); // warm-up
  await measure(4, false);
  const rows = [];
  for (const n of [1, 4, 12, 24]) {
    const [onePerPass, fetchedTogether] = [await measure(n, false), await measure(n, true)];
    const speedup = Number((onePerPass.microsPerRequest / fetchedTogether.microsPerRequest).toFixed(1));
    rows.push({ checks: n, onePerPass, fetchedTogether, speedup });
  }
  const result = { date: new Date().toISOString(), cpus: cpus().length, loadavg: loadavg(), requests, rows };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    join(dirname(fileURLToPath(import.meta.url)), "results-policy-authorizer-passes.json"),
    `${JSON.stringify(result, null, 2)}\n`,
  );
}

await main();
