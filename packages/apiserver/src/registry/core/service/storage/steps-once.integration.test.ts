/**
 * A Service create and update through the HTTP server do each step of upstream's Store.Create /
 * Store.Update once: metadata init (initCreateMetadata), clusterIP(s) normalisation
 * (normalizeClusterIPs, BeginCreate/BeginUpdate in storage.go) and name validation (the
 * strategy's Validate; ValidateService validates metadata.name).
 */
import type * as api from "@servicenet/api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import type { KubeObject } from "../../../../storage/index.ts";
import { GenericStore } from "../../../generic/store.ts";
import { normalizeClusterIPs } from "./normalize.ts";

vi.mock("./normalize.ts", async (importOriginal) => {
  const m = await importOriginal<typeof import("./normalize.ts")>();
  return { ...m, normalizeClusterIPs: vi.fn(m.normalizeClusterIPs) };
});

// Every caller of the Service name validator or of the Service validators, inside the apiserver.
vi.mock("@servicenet/api", async (importOriginal) => {
  const m = await importOriginal<typeof api>();
  return {
    ...m,
    validateServiceName: vi.fn(m.validateServiceName),
    validateServiceCreate: vi.fn(m.validateServiceCreate),
    validateServiceUpdate: vi.fn(m.validateServiceUpdate),
  };
});
const mocked = await import("@servicenet/api");

const name = "steps-once";
type Call = readonly unknown[];
const isOurs = (o: unknown): boolean => (o as KubeObject | undefined)?.metadata?.name === name;
const storeProto = GenericStore.prototype as unknown as { initCreateMetadata: (o: KubeObject) => void };
// Spied per request: the config's restoreMocks restores spies before every test.
let initCreateMetadata = vi.spyOn(storeProto, "initCreateMetadata");

/** The calls since the last reset whose first argument (or, for the name validator, the name) is our Service. */
function counts(): Record<string, number> {
  const ours = (calls: Call[]) => calls.filter((c) => isOurs(c[0])).length;
  return {
    initCreateMetadata: ours(initCreateMetadata.mock.calls),
    normalizeClusterIPs: ours(vi.mocked(normalizeClusterIPs).mock.calls),
    // ValidateService (inside ValidateServiceCreate/Update) validates the name; so does any direct call.
    nameValidation:
      ours(vi.mocked(mocked.validateServiceCreate).mock.calls) +
      ours(vi.mocked(mocked.validateServiceUpdate).mock.calls) +
      vi.mocked(mocked.validateServiceName).mock.calls.filter((c) => c[0] === name).length,
  };
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ tls: false });
});
afterAll(async () => s.close());

async function send(method: string, url: string, body: unknown): Promise<number> {
  vi.clearAllMocks();
  initCreateMetadata = vi.spyOn(storeProto, "initCreateMetadata");
  const res = await s.request(url, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return res.status;
}

describe("Service writes through the HTTP server", () => {
  const svc = { apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: { app: "a" }, ports: [{ port: 80 }] } };
  const path = "/api/v1/namespaces/default/services";

  it("create: each step once", async () => {
    expect(await send("POST", path, svc)).toBe(201);
    expect(counts()).toEqual({ initCreateMetadata: 1, normalizeClusterIPs: 1, nameValidation: 1 });
  });

  it("update: each step once (no metadata init on an update)", async () => {
    const body = { ...svc, metadata: { name, labels: { x: "y" } } };
    expect(await send("PUT", `${path}/${name}`, body)).toBe(200);
    expect(counts()).toEqual({ initCreateMetadata: 0, normalizeClusterIPs: 1, nameValidation: 1 });
  });

  it("create on update (PUT of a missing Service): each step once", async () => {
    const other = { ...svc, metadata: { name } };
    expect(await send("DELETE", `${path}/${name}`, undefined)).toBe(200);
    expect(await send("PUT", `${path}/${name}`, other)).toBe(201);
    expect(counts()).toEqual({ initCreateMetadata: 1, normalizeClusterIPs: 1, nameValidation: 1 });
  });
});
