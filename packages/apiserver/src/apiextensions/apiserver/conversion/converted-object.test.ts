/** Upstream pkg/apiserver/conversion/webhook_converter_test.go TestRestoreObjectMeta. */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../storage/index.ts";
import { restoreObjectMeta } from "./converted-object.ts";

type M = Record<string, unknown>;
const meta = (m: unknown, extra: M = { spec: {} }): M => ({ metadata: m, ...extra });

describe("TestRestoreObjectMeta", () => {
  it.each<[string, M, M, M, boolean]>([
    ["no converted metadata", meta({}), { spec: {} }, { spec: {} }, true],
    ["invalid converted metadata", meta({}), { metadata: ["foo"] }, { metadata: ["foo"] }, true],
    ["no original metadata", { spec: {} }, meta({}), meta({}), false],
    ["invalid original metadata", { metadata: ["foo"] }, meta({}), meta(["foo"]), true],
    [
      "changed label, annotations and non-label",
      meta({ foo: "bar", labels: { a: "A", b: "B" }, annotations: { a: "1", b: "2" } }),
      meta({ foo: "abc", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      meta({ foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      false,
    ],
    [
      "added labels and annotations",
      meta({ foo: "bar" }),
      meta({ foo: "abc", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      meta({ foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      false,
    ],
    [
      "added labels and annotations, with nil before",
      meta({ foo: "bar", labels: null, annotations: null }),
      meta({ foo: "abc", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      meta({ foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      false,
    ],
    [
      "removed labels and annotations",
      meta({ foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      meta({ foo: "abc" }),
      meta({ foo: "bar" }),
      false,
    ],
    [
      "nil'ed labels and annotations",
      meta({ foo: "bar", labels: { a: "AA", b: "B" }, annotations: { a: "1", b: "22" } }),
      meta({ foo: "abc", labels: null, annotations: null }),
      meta({ foo: "bar" }),
      false,
    ],
    [
      "added labels and annotations with nil values",
      meta({ foo: "bar" }),
      meta({ foo: "abc", labels: { a: null, b: "B" }, annotations: { a: null, b: "22" } }),
      meta({ foo: "bar" }),
      true,
    ],
    ["invalid label key", { metadata: {} }, { metadata: { labels: { "some/non-qualified/label": "x" } } }, { metadata: {} }, true],
    ["invalid label value", { metadata: {} }, { metadata: { labels: { foo: "üäö" } } }, { metadata: {} }, true],
    ["too big label value", { metadata: {} }, { metadata: { labels: { foo: "x".repeat(64) } } }, { metadata: {} }, true],
    [
      "too big annotation value",
      { metadata: {} },
      { metadata: { annotations: { foo: "x".repeat(256 * (1 << 10) + 1) } } },
      { metadata: {} },
      true,
    ],
  ])("%s", (_name, original, converted, expected, expectError) => {
    let err: unknown;
    try {
      restoreObjectMeta(original as unknown as KubeObject, converted);
    } catch (e) {
      err = e;
    }
    expect(err !== undefined).toBe(expectError);
    // As upstream's table, what is left after an error counts too (the metadata is restored first).
    expect(converted).toEqual(expected);
  });
});
