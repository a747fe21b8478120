import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { applyJSONPatch } from "./json-patch.ts";
import { applyMergePatch } from "./merge-patch.ts";
import type { JSONValue } from "./json-value.ts";

const doc = { metadata: { name: "web", labels: { "a/b": "1", "m~n": "2" } }, spec: { ports: [{ port: 80 }, { port: 443 }] } };

describe("applyJSONPatch (RFC 6902)", () => {
  it.each<[string, unknown[], JSONValue]>([
    ["add member", [{ op: "add", path: "/spec/type", value: "NodePort" }], { ...doc, spec: { ...doc.spec, type: "NodePort" } }],
    [
      "add at end with -",
      [{ op: "add", path: "/spec/ports/-", value: { port: 8080 } }],
      { ...doc, spec: { ports: [{ port: 80 }, { port: 443 }, { port: 8080 }] } },
    ],
    [
      "add inserts at index",
      [{ op: "add", path: "/spec/ports/0", value: { port: 1 } }],
      { ...doc, spec: { ports: [{ port: 1 }, { port: 80 }, { port: 443 }] } },
    ],
    ["remove item", [{ op: "remove", path: "/spec/ports/0" }], { ...doc, spec: { ports: [{ port: 443 }] } }],
    [
      "replace via ~1 escape",
      [{ op: "replace", path: "/metadata/labels/a~1b", value: "x" }],
      { ...doc, metadata: { name: "web", labels: { "a/b": "x", "m~n": "2" } } },
    ],
    [
      "remove via ~0 escape",
      [{ op: "remove", path: "/metadata/labels/m~0n" }],
      { ...doc, metadata: { name: "web", labels: { "a/b": "1" } } },
    ],
    ["move", [{ op: "move", from: "/spec/ports/1", path: "/spec/ports/0" }], { ...doc, spec: { ports: [{ port: 443 }, { port: 80 }] } }],
    ["copy", [{ op: "copy", from: "/spec/ports/0", path: "/spec/first" }], { ...doc, spec: { ...doc.spec, first: { port: 80 } } }],
    [
      "test passes then replace",
      [
        { op: "test", path: "/spec/ports/1/port", value: 443 },
        { op: "replace", path: "/spec/ports/1/port", value: 8443 },
      ],
      { ...doc, spec: { ports: [{ port: 80 }, { port: 8443 }] } },
    ],
    ["replace whole document", [{ op: "replace", path: "", value: { a: 1 } }], { a: 1 }],
    // evanphx/json-patch v4 partialDoc.get: a missing member is replaced as if added.
    ["replace of missing key", [{ op: "replace", path: "/spec/type", value: "x" }], { ...doc, spec: { ...doc.spec, type: "x" } }],
  ])("%s", (_name, ops, want) => {
    expect(applyJSONPatch(doc, ops)).toEqual(want);
  });

  it("does not modify its input", () => {
    const before = JSON.stringify(doc);
    applyJSONPatch(doc, [{ op: "remove", path: "/spec" }]);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it.each<[string, unknown, number, string]>([
    [
      "failed test",
      [{ op: "test", path: "/metadata/name", value: "db" }],
      422,
      "the server rejected our request due to an error in our request",
    ],
    [
      "missing path for remove",
      [{ op: "remove", path: "/spec/nope" }],
      422,
      "the server rejected our request due to an error in our request",
    ],
    [
      "replace under a missing parent",
      [{ op: "replace", path: "/spec/nope/type", value: "x" }],
      422,
      "the server rejected our request due to an error in our request",
    ],
    [
      "replace of a missing array element",
      [{ op: "replace", path: "/spec/ports/2", value: { port: 1 } }],
      422,
      "the server rejected our request due to an error in our request",
    ],
    [
      "index out of range",
      [{ op: "add", path: "/spec/ports/5", value: 1 }],
      422,
      "the server rejected our request due to an error in our request",
    ],
    [
      "leading zero index",
      [{ op: "remove", path: "/spec/ports/01" }],
      422,
      "the server rejected our request due to an error in our request",
    ],
    ["unknown op", [{ op: "frobnicate", path: "/spec" }], 422, "the server rejected our request due to an error in our request"],
    ["not an array", { op: "add" }, 400, "json: cannot unmarshal object into Go value of type jsonpatch.Patch"],
    [
      "too many operations",
      Array.from({ length: 10001 }, () => ({ op: "test", path: "", value: 1 })),
      413,
      "The allowed maximum operations in a JSON patch is 10000, got 10001",
    ],
  ])("%s is a StatusError %i", (_name, ops, code, message) => {
    let err: unknown;
    try {
      applyJSONPatch(doc, ops);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(code);
    expect((err as StatusError).status.message).toBe(message);
  });

  it("stops doubling copies at the accumulated copy limit (422) instead of exhausting memory", () => {
    // 40 doublings of a 1 KiB array would be 1 TiB; the limit trips after about 12.
    const ops: unknown[] = [{ op: "add", path: "/spec/a", value: ["x".repeat(1024)] }];
    for (let i = 0; i < 40; i++) ops.push({ op: "copy", from: "/spec/a", path: "/spec/a/-" });
    let err: unknown;
    try {
      applyJSONPatch(doc, ops);
    } catch (e) {
      err = e;
    }
    expect((err as StatusError).code).toBe(422);
    expect(((err as Error).cause as Error).message).toMatch(
      /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
    );
    // Copies under the limit still apply: 5 doublings nest 32 copies of the string.
    const small = applyJSONPatch(doc, ops.slice(0, 6)) as { spec: { a: unknown[] } };
    expect(JSON.stringify(small.spec.a).split("x".repeat(1024)).length - 1).toBe(32);
  });

  it("keeps the operation's own message as the cause of a 422", () => {
    try {
      applyJSONPatch(doc, [{ op: "test", path: "/metadata/name", value: "db" }]);
    } catch (e) {
      expect(((e as Error).cause as Error).message).toBe("testing value /metadata/name failed: test failed");
      expect((e as StatusError).status.details).toEqual({});
    }
  });
});

describe("applyMergePatch (RFC 7386)", () => {
  // The examples of RFC 7386 Appendix A.
  it.each<[JSONValue, unknown, JSONValue]>([
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])("%j + %j", (target, patch, want) => {
    expect(applyMergePatch(target, patch)).toEqual(want);
  });

  it("rejects a non-object patch of an object with 400", () => {
    expect(() => applyMergePatch({ a: 1 }, ["x"])).toThrow("Invalid JSON Patch");
  });
});
