/**
 * The fast hostile-input run (`npm test`): 1,500 seeded requests over every discovered endpoint
 * and an auth sweep, against `servicenet up` in a child process. The 20,000-request run is
 * fuzz.e2e.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runAuthChecks } from "./auth-check.ts";
import { generateCase } from "./cases.ts";
import { runFuzz, summarize } from "./run.ts";
import { fuzzTargetBuilt, useFuzzTarget } from "./suite.ts";

const built = fuzzTargetBuilt();

describe.skipIf(!built)("hostile input against every endpoint (fast)", () => {
  const target = useFuzzTarget();

  it("generates the same requests for the same seed and different ones for another", () => {
    const a = Array.from({ length: 50 }, (_, i) => generateCase(7, i, target.discovered()));
    const b = Array.from({ length: 50 }, (_, i) => generateCase(7, i, target.discovered()));
    const c = Array.from({ length: 50 }, (_, i) => generateCase(8, i, target.discovered()));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it("discovers every group version, resource and subresource", () => {
    const names = target
      .discovered()
      .resources.map((r) => `${r.group}/${r.version}/${r.resource}${r.subresource ? `/${r.subresource}` : ""}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "/v1/services",
        "/v1/services/status",
        "discovery.k8s.io/v1/endpointslices",
        "networking.k8s.io/v1beta1/servicecidrs/status",
        "networking.k8s.io/v1alpha1/ipaddresses",
        "authentication.k8s.io/v1alpha1/selfsubjectreviews",
        "coordination.k8s.io/v1/leases",
      ]),
    );
    expect(target.discovered().nonResource).toEqual(
      expect.arrayContaining(["/openapi/v2", "/openapi/v3", "/openapi/v3/api/v1", "/version", "/metrics", "/readyz"]),
    );
  });

  it("refuses wrong credentials with a 401 Status and anonymous requests with a 403 everywhere but GET on the public paths", async () => {
    const r = await runAuthChecks(target.server(), target.discovered(), { credentials: 3 });
    console.log(`fuzz auth (fast): ${r.requests} requests, ${r.publicAnswers.size} to public paths, violations ${r.violations.length}`);
    expect(r.violations.slice(0, 20)).toEqual([]);
  });

  it("1,500 hostile requests: no crash, no 5xx, Status errors, no write succeeds, data unchanged", async () => {
    const r = await runFuzz(target.server(), target.discovered(), { seed: 20261202, count: 1500, concurrency: 4, batch: 100 });
    console.log(summarize("fuzz (fast)", r));
    expect(r.violations.slice(0, 20)).toEqual([]);
    expect(r.snapshotDiff).toEqual([]);
    expect(r.requests).toBe(1500);
    expect(target.server().exited()).toBeUndefined();
  }, 120_000);
});
