/**
 * The fast hostile-input run (`npm test`): 1,500 seeded requests over every discovered endpoint
 * and an auth sweep, against `servicenet up` in a child process. The 20,000-request run is
 * fuzz.e2e.test.ts.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthChecks } from "./auth-check.ts";
import { generateCase } from "./cases.ts";
import { servicenetUp, startChildApiServer, type ChildApiServer } from "./child-apiserver.ts";
import type { Discovered } from "./discovery-walk.ts";
import { prepare, runFuzz, summarize } from "./run.ts";

const built = existsSync(servicenetUp);
if (!built) console.warn(`fuzz: ${servicenetUp} is missing (run the build), skipping`);

describe.skipIf(!built)("hostile input against every endpoint (fast)", () => {
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

  it("generates the same requests for the same seed and different ones for another", () => {
    const a = Array.from({ length: 50 }, (_, i) => generateCase(7, i, discovered));
    const b = Array.from({ length: 50 }, (_, i) => generateCase(7, i, discovered));
    const c = Array.from({ length: 50 }, (_, i) => generateCase(8, i, discovered));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  }, 60_000);

  it("discovers every group version, resource and subresource", () => {
    const names = discovered.resources.map((r) => `${r.group}/${r.version}/${r.resource}${r.subresource ? `/${r.subresource}` : ""}`);
    expect(names).toEqual(expect.arrayContaining(["/v1/services", "/v1/services/status", "discovery.k8s.io/v1/endpointslices", "networking.k8s.io/v1beta1/servicecidrs/status", "coordination.k8s.io/v1/leases"]));
    expect(discovered.nonResource).toEqual(expect.arrayContaining(["/openapi/v2", "/openapi/v3", "/openapi/v3/api/v1", "/version", "/metrics", "/readyz"]));
  });

  it("refuses missing and wrong credentials with a 401 Status everywhere but the public paths", async () => {
    const r = await runAuthChecks(server, discovered, { credentials: 3 });
    console.log(`fuzz auth (fast): ${r.requests} requests, ${r.publicAnswers.size} to public paths (200), violations ${r.violations.length}`);
    expect(r.violations.slice(0, 20)).toEqual([]);
  }, 60_000);

  it("1,500 hostile requests: no crash, no 5xx, Status errors, no write succeeds, data unchanged", async () => {
    const r = await runFuzz(server, discovered, { seed: 20261202, count: 1500, concurrency: 4, batch: 100 });
    console.log(summarize("fuzz (fast)", r));
    expect(r.violations.slice(0, 20)).toEqual([]);
    expect(r.snapshotDiff).toEqual([]);
    expect(r.requests).toBe(1500);
    expect(server.exited()).toBeUndefined();
  }, 120_000);
});
