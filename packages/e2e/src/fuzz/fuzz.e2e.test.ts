/**
 * The big hostile-input run (`npm run test:e2e`): up to 20,000 seeded requests (bounded to about
 * 80 s of requests on a busy machine) over every discovered endpoint, plus the full auth sweep with
 * every bad credential, against `servicenet up` in a child process.
 */
import { describe, expect, it } from "vitest";
import { runAuthChecks } from "./auth-check.ts";
import { runFuzz, summarize } from "./run.ts";
import { fuzzTargetBuilt, useFuzzTarget } from "./suite.ts";

const built = fuzzTargetBuilt();

describe.skipIf(!built)("hostile input against every endpoint (20,000 requests)", () => {
  const target = useFuzzTarget();

  it("refuses every bad credential on every path and verb (401, anonymous 403)", async () => {
    const r = await runAuthChecks(target.server(), target.discovered());
    console.log(`fuzz auth (e2e): ${r.requests} requests, ${r.publicAnswers.size} to public paths, violations ${r.violations.length}`);
    expect(r.violations.slice(0, 20)).toEqual([]);
  });

  it("20,000 hostile requests: no crash, no 5xx, Status errors, no write succeeds, data unchanged", async () => {
    const r = await runFuzz(target.server(), target.discovered(), {
      seed: 1202,
      count: 20_000,
      concurrency: 4,
      batch: 250,
      deadlineMs: 80_000,
    });
    console.log(summarize("fuzz (e2e)", r));
    console.log(
      `fuzz (e2e) flaws: ${Object.entries(r.byFlaw)
        .map(([k, v]) => `${k}:${v}`)
        .join(" ")}`,
    );
    expect(r.violations.slice(0, 20)).toEqual([]);
    expect(r.snapshotDiff).toEqual([]);
    // Bounded in time: on a loaded 2-core machine fewer than 20,000 fit in 80 s; at least 3,000 must.
    expect(r.requests).toBeGreaterThanOrEqual(3000);
    expect(target.server().exited()).toBeUndefined();
  });
});
