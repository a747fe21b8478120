import { describe, expect, it } from "vitest";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { turnsDuring } from "../util/eventloop/testing.ts";
import { sliceEntries } from "../util/json/string-maps.ts";
import { updateManagedFields, type JSONObject } from "./patch/index.ts";
import { decodeBody, decodeBodyInTurns } from "./codec.ts";
import { countMembers, countMembersInTurns } from "./json-duplicates.ts";
import { detachLargeMaps, jsonWithLargeMaps, largeMapMinEntries } from "./large-maps.ts";
import { EncodedObjectCache } from "./encoded-cache.ts";
import { objectJSON, objectJSONInTurns } from "./present.ts";
import type { KubeObject } from "../storage/index.ts";
import type { BodyFormat } from "./negotiation.ts";
import { findResource } from "./resources.ts";

const services = findResource("", "v1", "services")!;
const namespaces = findResource("", "v1", "namespaces")!;

function manyLabels(n: number, last?: unknown): Record<string, unknown> {
  const m: Record<string, unknown> = Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i.toString(36)}`, "v"]));
  if (last !== undefined) m["zz"] = last;
  return m;
}

const service = (metadata: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name: "big", ...metadata }, spec: { ports: [{ port: 80 }] }, ...extra });

async function both(text: string, format: BodyFormat = "json", def = services, fv: "Strict" | "Warn" = "Warn") {
  const inTurns = await decodeBodyInTurns(def, Buffer.from(text), format, fv, new TurnBudget(0)).catch((e: Error) => e);
  let sync: unknown;
  try {
    sync = decodeBody(def, Buffer.from(text), format, fv);
  } catch (e) {
    sync = e;
  }
  return { inTurns, sync };
}

describe("detachLargeMaps", () => {
  it("checks a map of many labels a slice at a time, with turns of the event loop in between", async () => {
    const value = JSON.parse(service({ labels: manyLabels(8 * largeMapMinEntries) })) as { metadata: { labels: object } };
    let detached: Awaited<ReturnType<typeof detachLargeMaps>>;
    const turns = await turnsDuring(detachLargeMaps(services.schema, value, new TurnBudget(0)).then((d) => (detached = d)));
    expect(turns).toBeGreaterThanOrEqual(7);
    expect(Object.keys(detached!.labels!)).toHaveLength(8 * largeMapMinEntries);
    expect(value.metadata.labels).toEqual({});
  });

  it.each([
    ["a small map", manyLabels(largeMapMinEntries - 1)],
    ["a number among the values", manyLabels(largeMapMinEntries, 5)],
    ["a null among the values", manyLabels(largeMapMinEntries, null)],
    ["an object among the values", manyLabels(largeMapMinEntries, { a: "b" })],
  ])("leaves %s in the body", async (_, labels) => {
    const value = JSON.parse(service({ labels })) as { metadata: { labels: object } };
    expect(await detachLargeMaps(services.schema, value, new TurnBudget(0))).toBeUndefined();
    expect(value.metadata.labels).toEqual(labels);
  });

  it("leaves a body whose kind has no schema (a custom resource's) alone", async () => {
    const value = JSON.parse(service({ labels: manyLabels(largeMapMinEntries) })) as unknown;
    expect(await detachLargeMaps(undefined, value, new TurnBudget(0))).toBeUndefined();
  });
});

describe("decodeBodyInTurns with large maps decodes exactly as decodeBody", () => {
  const n = 2 * largeMapMinEntries;
  it.each([
    ["labels and annotations", service({ labels: manyLabels(n), annotations: manyLabels(n) })],
    ["labels before the name", JSON.stringify({ metadata: { labels: manyLabels(n), name: "big" }, spec: { ports: [{ port: 80 }] } })],
    ["an unknown field elsewhere", service({ labels: manyLabels(n) }, { extra: 1 })],
    ["a bad port elsewhere", service({ labels: manyLabels(n) }, { spec: { ports: [{ port: "x" }] } })],
    ["a null label (dropped)", service({ labels: manyLabels(n, null) })],
    ["a number label (a type error)", service({ labels: manyLabels(n, 5) })],
    ["a __proto__ label", service({ labels: { ...manyLabels(n), ["__proto__"]: "v" } }).replace('"zz"', '"__proto__"')],
  ])("%s", async (_, text) => {
    for (const fv of ["Strict", "Warn"] as const) {
      const { inTurns, sync } = await both(text, "json", services, fv);
      expect(inTurns).toEqual(sync);
      // The same members in the same order: stored JSON is written in this order.
      if (!(sync instanceof Error)) expect(JSON.stringify(inTurns)).toBe(JSON.stringify(sync));
    }
  });

  it("gives a Namespace of many labels its defaulted name label", async () => {
    const text = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: "big", labels: manyLabels(n) } });
    const { inTurns, sync } = await both(text, "json", namespaces);
    expect(JSON.stringify(inTurns)).toBe(JSON.stringify(sync));
    expect(
      (inTurns as unknown as { obj: { metadata: { labels: Record<string, string> } } }).obj.metadata.labels["kubernetes.io/metadata.name"],
    ).toBe("big");
  });

  it("gives the event loop turns while it checks the maps", async () => {
    const text = service({ labels: manyLabels(8 * largeMapMinEntries) });
    expect(await turnsDuring(decodeBodyInTurns(services, Buffer.from(text), "json", "Warn", new TurnBudget(0)))).toBeGreaterThanOrEqual(8);
  });

  it("reads YAML bodies the same way", async () => {
    const labels = Object.entries(manyLabels(n))
      .map(([k, v]) => `    ${k}: ${String(v)}`)
      .join("\n");
    const { inTurns, sync } = await both(
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: big\n  labels:\n${labels}\nspec:\n  ports:\n  - port: 80\n`,
      "yaml",
    );
    expect(JSON.stringify(inTurns)).toBe(JSON.stringify(sync));
  });
});

describe("countMembersInTurns", () => {
  it.each([
    ['{"a":1}'],
    ['{"a":{"b":[1,{"c":2,"d":null}]},"e":[]}'],
    ["[]"],
    ["5"],
    [service({ labels: manyLabels(3 * largeMapMinEntries) })],
  ])("counts as countMembers does: %s", async (text) => {
    const v = JSON.parse(text) as unknown;
    expect(await countMembersInTurns(v, new TurnBudget(0))).toBe(countMembers(v));
  });

  it("gives the event loop turns during a map of many members", async () => {
    const v = JSON.parse(service({ labels: manyLabels(8 * largeMapMinEntries) })) as unknown;
    expect(await turnsDuring(countMembersInTurns(v, new TurnBudget(0)))).toBeGreaterThanOrEqual(7);
  });

  it("still finds a duplicated label of a large map (Strict rejects it as decodeBody does)", async () => {
    const text = service({ labels: manyLabels(2 * largeMapMinEntries) }).replace('"l0":"v"', '"l0":"v","l0":"w"');
    const { inTurns, sync } = await both(text, "json", services, "Strict");
    expect((inTurns as Error).message).toContain('strict decoding error: duplicate field "metadata.labels.l0"');
    expect(inTurns).toEqual(sync);
  });
});

describe("objectJSONInTurns writes exactly what objectJSON writes", () => {
  const stored = (labels: Record<string, unknown>, annotations?: Record<string, unknown>): KubeObject => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "big", namespace: "ns", resourceVersion: "7", uid: "u", labels, ...(annotations ? { annotations } : {}) },
    spec: { ports: [{ port: 80, protocol: "TCP", targetPort: 80 }], clusterIP: "10.0.0.1", type: "ClusterIP" },
    status: { loadBalancer: {} },
  });
  const n = 2 * largeMapMinEntries;
  // Insertion order unlike the sorted order Go writes; values with `$&` and quotes that a replacement must keep.
  const mixed = { ...manyLabels(n), a: "$&$'", "b.example/c": 'q"\\', "0x": "" };

  it.each([
    ["large labels and annotations", stored(mixed, manyLabels(n))],
    ["large labels, small annotations", stored(manyLabels(n), { x: "y" })],
    ["an array-index key (written first by JSON.stringify)", stored({ ...manyLabels(n), "12": "v" })],
    ["a small map", stored({ a: "b" })],
    ["a non-string value", stored(manyLabels(n, 5))],
  ])("%s", async (_, obj) => {
    const before = JSON.stringify(obj);
    const want = objectJSON(services, obj, new EncodedObjectCache());
    expect(await objectJSONInTurns(services, obj, new EncodedObjectCache(), new TurnBudget(0))).toBe(want);
    expect(JSON.stringify(obj)).toBe(before);
  });

  it("gives the event loop turns while a large map is written, and caches the version's JSON", async () => {
    const obj = stored(manyLabels(8 * largeMapMinEntries));
    const cache = new EncodedObjectCache();
    let json = "";
    const turns = await turnsDuring(objectJSONInTurns(services, obj, cache, new TurnBudget(0)).then((j) => (json = j)));
    expect(turns).toBeGreaterThanOrEqual(8);
    expect(cache.stats()).toEqual({ entries: 1, bytes: json.length });
    expect(objectJSON(services, obj, cache)).toBe(json);
  });

  it("writes a marked field set in managedFields a slice at a time too, exactly as objectJSON does", async () => {
    const big = 8 * largeMapMinEntries;
    const { obj } = await decodeBodyInTurns(services, Buffer.from(service({ labels: manyLabels(big) })), "json", "Warn", new TurnBudget(0));
    const managed = updateManagedFields(undefined, obj as unknown as JSONObject, "m", "Update", "v1", new Date(0)) as unknown as KubeObject;
    const stored = { ...managed, metadata: { ...managed.metadata, namespace: "ns", uid: "u", resourceVersion: "3" } };
    const want = objectJSON(services, stored, new EncodedObjectCache());
    const budget = new TurnBudget(0);
    let yields = 0;
    const maybeYield = budget.maybeYield.bind(budget);
    budget.maybeYield = () => (yields++, maybeYield());
    expect(await objectJSONInTurns(services, stored, new EncodedObjectCache(), budget)).toBe(want);
    // The labels and their field set: a yield per slice of each.
    expect(yields).toBeGreaterThanOrEqual((2 * big) / sliceEntries);
  });

  it("takes a decoded body's large map as all strings, as the decode found, reading each value once", async () => {
    const { obj } = await decodeBodyInTurns(services, Buffer.from(service({ labels: manyLabels(n) })), "json", "Warn", new TurnBudget(0));
    const labels = obj.metadata.labels as Record<string, string>;
    const want = objectJSON(services, { ...obj, metadata: { ...obj.metadata, labels: { ...labels } } }, new EncodedObjectCache());
    let reads = 0;
    Object.defineProperty(labels, "l0", { get: () => (reads++, "v"), enumerable: true, configurable: true });
    expect(await objectJSONInTurns(services, obj, new EncodedObjectCache(), new TurnBudget(0))).toBe(want);
    expect(reads).toBe(1);
  });

  it("leaves an object without large maps to one JSON.stringify", async () => {
    const obj = { metadata: { name: "x", labels: { a: "b" } }, spec: {} };
    expect(await jsonWithLargeMaps(obj, (o) => o, new TurnBudget(0))).toBe(JSON.stringify(obj));
  });
});
