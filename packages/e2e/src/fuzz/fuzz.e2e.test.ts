/**
 * The big hostile-input run (`npm run test:e2e`): up to 20,000 seeded requests (bounded to about
 * 80 s of requests on a busy machine) over every discovered endpoint, plus the full auth sweep with
 * every bad credential, against `servicenet up` in a child process.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthChecks } from "./auth-check.ts";
import { servicenetUp, startChildApiServer, type ChildApiServer } from "./child-apiserver.ts";
import type { Discovered } from "./discovery-walk.ts";
import { prepare, runFuzz, summarize } from "./run.ts";

const built = existsSync(servicenetUp);
if (!built) console.warn(`fuzz: ${servicenetUp} is missing (run the build), skipping`);

describe.skipIf(!built)("hostile input against every endpoint (20,000 requests)", () => {
  let server: ChildApiServer;
  let discovered: Discovered;
  beforeAll(async () => {
    server = await startChildApiServer();
    const p = await prepare(server);
    discovered = p.discovered;
    expect(p.seedsRefused).toEqual([]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses every bad credential on every path and verb with a 401 Status", async () => {
    const r = await runAuthChecks(server, discovered);
    console.log(`fuzz auth (e2e): ${r.requests} requests, ${r.publicAnswers.size} to public paths (200), violations ${r.violations.length}`);
    expect(r.violations.slice(0, 20)).toEqual([]);
  });

  it("20,000 hostile requests: no crash, no 5xx, Status errors, no write succeeds, data unchanged", async () => {
    const r = await runFuzz(server, discovered, { seed: 1202, count: 20_000, concurrency: 4, batch: 250, deadlineMs: 80_000 });
    console.log(summarize("fuzz (e2e)", r));
    console.log(`fuzz (e2e) flaws: ${Object.entries(r.byFlaw).map(([k, v]) => `${k}:${v}`).join(" ")}`);
    expect(r.violations.slice(0, 20)).toEqual([]);
    expect(r.snapshotDiff).toEqual([]);
    // Bounded in time: on a loaded 2-core machine fewer than 20,000 fit in 80 s; at least 3,000 must.
    expect(r.requests).toBeGreaterThanOrEqual(3000);
    expect(server.exited()).toBeUndefined();
  });
});
