import { afterEach, describe, expect, it, vi } from "vitest";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { turnsDuring } from "../util/eventloop/testing.ts";
import { markStringMap, sliceEntries } from "../util/json/string-maps.ts";
import {
  atRevision,
  clone,
  decode,
  decodedCopy,
  decodeKV,
  encode,
  encodeForStorage,
  nowTimestamp,
  storedCopy,
  withCreateMeta,
} from "./codec.ts";
import type { KubeObject } from "./interfaces.ts";
import { stringifyJSON } from "../util/json/json.ts";

/** What a write used to return: its own bytes parsed back. */
const readBack = (obj: KubeObject, revision: number): KubeObject => decode(encode(obj), revision);

const objects: Record<string, KubeObject> = {
  service: withCreateMeta({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "s", namespace: "ns", labels: { "2": "b", app: "a", "1": "c" }, annotations: { note: "x".repeat(40) } },
    spec: { clusterIPs: ["10.0.0.1"], ports: [{ port: 80, targetPort: 8080, nodePort: undefined }], selector: {} },
    status: { loadBalancer: {} },
  }),
  "stale resourceVersion in the input": { metadata: { resourceVersion: "3", name: "a" }, data: { resourceVersion: "kept" } },
  "metadata last": { kind: "X", spec: { a: 1 }, metadata: { name: "m" } },
  "undefined members": { kind: "X", gone: undefined, metadata: { name: "u", uid: undefined } },
  "no metadata": { kind: "X" } as unknown as KubeObject,
  "null metadata": { kind: "X", metadata: null } as unknown as KubeObject,
  "a Date (JSON path)": { metadata: { name: "d", creationTimestamp: new Date(0) as unknown as string } },
  "undefined in an array (JSON path)": { metadata: { name: "n" }, list: [undefined, 1] },
  "toJSON (JSON path)": { metadata: { name: "t" }, spec: { toJSON: () => ({ replaced: true }) } },
  "NaN (JSON path)": { metadata: { name: "n" }, spec: { n: Number.NaN } },
  "a custom resource's int64s": { metadata: { name: "i" }, num: { num1: 9223372036854775807n, num2: -9223372036854775808n, big: 1e19 } },
};

describe("storedCopy", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(Object.entries(objects))("equals reading the written bytes back: %s", (_, obj) => {
    const value = encode(obj);
    const copy = atRevision(storedCopy(obj, value), 42);
    expect(stringifyJSON(copy)).toBe(stringifyJSON(readBack(obj, 42)));
    expect(copy).toStrictEqual(readBack(obj, 42));
    expect(stringifyJSON(storedCopy(obj, value))).toBe(value);
  });

  it("stores a custom resource's int64s as their digits and reads them back as they were", () => {
    const obj = objects["a custom resource's int64s"]!;
    expect(encode(obj)).toBe(
      '{"metadata":{"name":"i"},"num":{"num1":9223372036854775807,"num2":-9223372036854775808,"big":10000000000000000000}}',
    );
    expect(decode(encode(obj), 3)["num"]).toStrictEqual({ num1: 9223372036854775807n, num2: -9223372036854775808n, big: 1e19 });
  });

  it("does not parse the bytes of a plain object", () => {
    const obj = objects["service"]!;
    const value = encode(obj);
    const parse = vi.spyOn(JSON, "parse");
    atRevision(storedCopy(obj, value), 7);
    expect(parse).not.toHaveBeenCalled();
  });

  it("shares nothing with the input, either way round", () => {
    const obj = withCreateMeta({ metadata: { name: "a", labels: { x: "1" } }, spec: { ports: [{ port: 80 }] } });
    const copy = atRevision(storedCopy(obj, encode(obj)), 9);
    (obj["spec"] as { ports: { port: number }[] }).ports[0]!.port = 81;
    (obj.metadata["labels"] as Record<string, string>)["x"] = "2";
    expect(copy).toEqual(readBack({ ...obj, metadata: { ...obj.metadata, labels: { x: "1" } }, spec: { ports: [{ port: 80 }] } }, 9));
    (copy["spec"] as { ports: { port: number }[] }).ports[0]!.port = 99;
    expect((obj["spec"] as { ports: { port: number }[] }).ports[0]!.port).toBe(81);
  });
});

describe("decodeKV", () => {
  afterEach(() => vi.restoreAllMocks());

  /** A watch event's RawKV of a write of `obj`, as the sqlite engine makes it (decoded: a copy of the stored copy). */
  const eventKV = (obj: KubeObject, revision: number) => {
    const value = encode(obj);
    const decoded = decodedCopy(storedCopy(obj, value));
    return { key: "/k", value, modRevision: revision, createRevision: revision, ...(decoded ? { decoded } : {}) };
  };

  it.each(Object.entries(objects))("equals decoding the value, key order included: %s", (_, obj) => {
    const kv = eventKV(obj, 42);
    const got = decodeKV(kv);
    expect(stringifyJSON(got)).toBe(stringifyJSON(decode(kv.value, 42)));
    expect(got).toStrictEqual(decode(kv.value, 42));
  });

  it("hands the decoded copy out once without parsing, then parses a fresh object", () => {
    const kv = eventKV(objects["service"]!, 7);
    const parse = vi.spyOn(JSON, "parse");
    const first = decodeKV(kv);
    expect(parse).not.toHaveBeenCalled();
    expect(kv.decoded).toBeUndefined();
    const second = decodeKV(kv);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(second).toStrictEqual(first);
    expect(second).not.toBe(first);
    (first.metadata["labels"] as Record<string, string>)["app"] = "scribbled";
    expect((second.metadata["labels"] as Record<string, string>)["app"]).toBe("a");
  });

  it("has no decoded copy for what is not JSON data (the value is parsed)", () => {
    expect(decodedCopy({ metadata: { name: "d", creationTimestamp: new Date(0) as unknown as string } })).toBeUndefined();
    expect(decodedCopy({ metadata: { name: "n" }, spec: { n: Number.NaN } })).toBeUndefined();
  });
});

describe("clone", () => {
  afterEach(() => vi.restoreAllMocks());

  it("copies a stored object deeply with a tree copy, not structuredClone", () => {
    const stored = decode(encode(objects["service"]!), 5);
    const sc = vi.spyOn(globalThis, "structuredClone");
    const c = clone(stored);
    expect(sc).not.toHaveBeenCalled();
    expect(c).toStrictEqual(stored);
    (c.metadata["labels"] as Record<string, string>)["app"] = "changed";
    expect((stored.metadata["labels"] as Record<string, string>)["app"]).toBe("a");
  });

  it("falls back to structuredClone for what is not JSON data", () => {
    const obj = { metadata: { name: "d" }, when: new Date(0) };
    const c = clone(obj);
    expect(c["when"]).toBeInstanceOf(Date);
    expect(c["when"]).not.toBe(obj.when);
  });
});

describe("withCreateMeta", () => {
  it("fills what is missing, drops resourceVersion, keeps the members' order and the input", () => {
    const input: KubeObject = { kind: "X", metadata: { name: "a", resourceVersion: "4", uid: "u", labels: {} }, spec: {} };
    const out = withCreateMeta(input);
    expect(Object.keys(out)).toEqual(["kind", "metadata", "spec"]);
    expect(Object.keys(out.metadata)).toEqual(["name", "uid", "labels", "creationTimestamp"]);
    expect(out.metadata.uid).toBe("u");
    expect(input.metadata.resourceVersion).toBe("4");
  });
});

describe("nowTimestamp", () => {
  afterEach(() => vi.useRealTimers());

  it("is the current second in RFC 3339, also right after the second changes", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2024-05-06T07:08:09.999Z"));
    expect(nowTimestamp()).toBe("2024-05-06T07:08:09Z");
    vi.setSystemTime(new Date("2024-05-06T07:08:10.001Z"));
    expect(nowTimestamp()).toBe("2024-05-06T07:08:10Z");
    vi.setSystemTime(new Date("2024-05-06T07:08:10.500Z"));
    expect(nowTimestamp()).toBe("2024-05-06T07:08:10Z");
  });
});

describe("encodeForStorage", () => {
  const big = (): Record<string, string> => Object.fromEntries(Array.from({ length: 8 * sliceEntries }, (_, i) => [`l${i}`, "v"]));
  const nearLimit = (labels: Record<string, string>, annotations: Record<string, string> = { a: "b" }): KubeObject =>
    withCreateMeta({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "big", namespace: "ns", resourceVersion: "4", labels, annotations },
      spec: { ports: [{ port: 80 }] },
    });

  it.each(Object.entries(objects))("writes and copies as encode and storedCopy do: %s", async (_, obj) => {
    const { value, stored } = await encodeForStorage(obj, new TurnBudget(0));
    expect(value).toBe(encode(obj));
    expect(stringifyJSON(stored)).toBe(stringifyJSON(storedCopy(obj, value)));
  });

  it("writes marked maps exactly as encode does, in turns, and shares them with the copy", async () => {
    const labels = { ...big(), "5": "index keys first", q: '"$&' };
    const annotations = big();
    markStringMap(labels);
    markStringMap(annotations);
    const obj = nearLimit(labels, annotations);
    let out: Awaited<ReturnType<typeof encodeForStorage>> | undefined;
    const turns = await turnsDuring(encodeForStorage(obj, new TurnBudget(0)).then((r) => (out = r)));
    expect(turns).toBeGreaterThanOrEqual(16);
    expect(out!.value).toBe(encode(obj));
    expect(JSON.stringify(out!.stored)).toBe(out!.value);
    expect(out!.stored.metadata["labels"]).toBe(labels);
    expect(out!.stored.metadata).not.toBe(obj.metadata);
  });

  it("writes a custom resource with int64s and marked maps in one step, as encode does", async () => {
    const labels = big();
    markStringMap(labels);
    const obj = { ...nearLimit(labels), spec: { num: 9223372036854775807n } };
    const { value, stored } = await encodeForStorage(obj, new TurnBudget(0));
    expect(value).toBe(encode(obj));
    expect(value).toContain('"num":9223372036854775807');
    expect(stringifyJSON(stored)).toBe(value);
  });

  it("writes what the object was when called, though the caller changes it meanwhile", async () => {
    const labels = big();
    markStringMap(labels);
    const obj = nearLimit(labels);
    const want = encode(obj);
    const pending = encodeForStorage(obj, new TurnBudget(0));
    obj.metadata.name = "changed";
    (obj["spec"] as { ports: { port: number }[] }).ports[0]!.port = 1;
    const { value, stored } = await pending;
    expect(value).toBe(want);
    expect(JSON.stringify(stored)).toBe(want);
  });

  it("writes an unmarked map at once, as before", async () => {
    const obj = nearLimit(big());
    expect(await turnsDuring(encodeForStorage(obj, new TurnBudget(0)))).toBe(0);
  });
});
