/**
 * coordination.k8s.io/v1 Leases over HTTP as kube-apiserver 1.33 answers: strict decoding
 * (`fieldValidation=Strict`, Go type errors), ValidateLease, the strategy's dropped gated fields
 * and no unconditional updates (pkg/registry/coordination/lease/strategy.go).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const base = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
type Status = { code: number; reason: string; message: string };

describe("Leases", () => {
  let s: TestServer;
  const send = (method: string, path: string, body: unknown) =>
    s.request(path, {
      method,
      headers: { "Content-Type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const lease = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name },
    spec,
  });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("fieldValidation=Strict refuses an unknown field; the default warns and drops it", async () => {
    const strict = await send("POST", `${base}?fieldValidation=Strict`, lease("strict", { holderIdentity: "a", foo: 1 }));
    expect(strict.status).toBe(400);
    expect((strict.json() as Status).message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "spec.foo"',
    );
    const warn = await send("POST", base, lease("warn", { holderIdentity: "a", foo: 1 }));
    expect(warn.status).toBe(201);
    expect(warn.headers.get("warning")).toBe('299 - "unknown field \\"spec.foo\\""');
    expect((warn.json() as { spec: unknown }).spec).toEqual({ holderIdentity: "a" });
  });

  it('leaseDurationSeconds "abc" is the decoder\'s 400', async () => {
    const r = await send("POST", base, lease("abc", { leaseDurationSeconds: "abc" }));
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({
      reason: "BadRequest",
      message:
        'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32',
    });
  });

  it("ValidateLease's errors are 422 Invalid", async () => {
    const r = await send("POST", base, lease("bad", { leaseDurationSeconds: 0, leaseTransitions: -1 }));
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(
      'Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
  });

  it("drops strategy and preferredHolder (CoordinatedLeaderElection is off in 1.33)", async () => {
    const r = await send("POST", base, lease("gated", { holderIdentity: "a", strategy: "OldestEmulationVersion", preferredHolder: "b" }));
    expect(r.status).toBe(201);
    expect((r.json() as { spec: unknown }).spec).toEqual({ holderIdentity: "a" });
  });

  it("an update needs a resourceVersion (no unconditional updates)", async () => {
    expect((await send("POST", base, lease("rv", { holderIdentity: "a" }))).status).toBe(201);
    const r = await send("PUT", `${base}/rv`, lease("rv", { holderIdentity: "b" }));
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(
      'leases.coordination.k8s.io "rv" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
  });
});
