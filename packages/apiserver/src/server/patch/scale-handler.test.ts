/**
 * Upstream k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager/scalehandler_test.go
 * (TestTransformManagedFieldsToSubresource, TestTransformingManagedFieldsToParent), a subset of rows.
 */
import { describe, expect, it } from "vitest";
import type { JSONValue } from "./json-value.ts";
import { parentEntriesFromScale, scaleEntriesFromParent } from "./scale-handler.ts";

const mappings = new Map<string, readonly string[] | null>([["apps/v1", ["spec", "replicas"]]]);
const replicas = { "f:spec": { "f:replicas": {} } };
const entry = (
  manager: string,
  operation: "Apply" | "Update",
  apiVersion: string,
  fieldsV1: unknown,
  extra: Record<string, unknown> = {},
) => ({
  manager,
  operation,
  apiVersion,
  fieldsType: "FieldsV1",
  fieldsV1,
  ...extra,
});

describe("TestTransformManagedFieldsToSubresource", () => {
  it.each<[string, unknown[], unknown[]]>([
    [
      "field managers with spec.replicas",
      [
        entry("manager-1", "Update", "apps/v1", { "f:spec": { "f:replicas": {}, "f:selector": {} } }, { time: "2021-01-01T00:00:00Z" }),
        entry("manager-2", "Apply", "apps/v1", replicas, { time: "2021-01-01T00:00:00Z" }),
      ],
      [
        entry("manager-2", "Apply", "autoscaling/v1", replicas, { time: "2021-01-01T00:00:00Z" }),
        entry("manager-1", "Update", "autoscaling/v1", replicas, { time: "2021-01-01T00:00:00Z" }),
      ],
    ],
    ["no field manager with spec.replicas", [entry("manager-1", "Update", "apps/v1", { "f:spec": { "f:selector": {} } })], []],
    ["an unknown apiVersion is skipped", [entry("manager-1", "Update", "apps/v2", replicas)], []],
  ])("%s", (_name, parent, want) => {
    expect(scaleEntriesFromParent(parent as JSONValue, mappings)).toEqual(want);
  });
});

describe("TestTransformingManagedFieldsToParent", () => {
  it.each<[string, unknown[], unknown[], unknown[]]>([
    [
      "the scaler takes spec.replicas; the old owner keeps the rest",
      [entry("test", "Update", "apps/v1", { "f:spec": { "f:replicas": {}, "f:selector": {} } }, { time: "2021-01-01T00:00:00Z" })],
      [entry("scale", "Update", "autoscaling/v1", replicas, { subresource: "scale", time: "2021-01-02T00:00:00Z" })],
      [
        entry("scale", "Update", "apps/v1", replicas, { subresource: "scale" }),
        entry("test", "Update", "apps/v1", { "f:spec": { "f:selector": {} } }, { time: "2021-01-01T00:00:00Z" }),
      ],
    ],
    [
      "an owner of nothing but spec.replicas is dropped",
      [entry("test", "Apply", "apps/v1", replicas)],
      [entry("scale", "Update", "autoscaling/v1", replicas, { subresource: "scale" })],
      [entry("scale", "Update", "apps/v1", replicas, { subresource: "scale" })],
    ],
    [
      "an applier still owning spec.replicas in the scale keeps its entry",
      [entry("test", "Apply", "apps/v1", { "f:spec": { "f:replicas": {}, "f:selector": {} } })],
      [entry("test", "Apply", "autoscaling/v1", replicas)],
      [entry("test", "Apply", "apps/v1", { "f:spec": { "f:replicas": {}, "f:selector": {} } })],
    ],
    ["an entry of an unknown apiVersion is dropped", [entry("test", "Update", "apps/v2", replicas)], [], []],
  ])("%s", (_name, parent, scale, want) => {
    expect(parentEntriesFromScale(parent as JSONValue, scale as JSONValue, mappings, "apps/v1")).toEqual(want);
  });
});
