import { describe, expect, it } from "vitest";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { pruneDefaults } from "./prune.ts";

const str = { type: "string" };

describe("PruneDefaults", () => {
  it.each<[string, JSONSchemaProps, JSONSchemaProps]>([
    [
      "an object default loses the fields its schema does not specify",
      { type: "object", properties: { a: { type: "object", properties: { x: str }, default: { x: "1", y: "2" } } } },
      { type: "object", properties: { a: { type: "object", properties: { x: str }, default: { x: "1" } } } },
    ],
    [
      "under x-kubernetes-preserve-unknown-fields a default is kept whole",
      { type: "object", properties: { a: { type: "object", "x-kubernetes-preserve-unknown-fields": true, default: { y: "2" } } } },
      { type: "object", properties: { a: { type: "object", "x-kubernetes-preserve-unknown-fields": true, default: { y: "2" } } } },
    ],
    [
      "an embedded resource's default keeps apiVersion, kind and ObjectMeta's fields, not others",
      {
        type: "object",
        properties: {
          e: {
            type: "object",
            "x-kubernetes-embedded-resource": true,
            default: { apiVersion: "v1", kind: "K", metadata: { name: "n", unknown: "u" }, z: 1 },
          },
        },
      },
      {
        type: "object",
        properties: {
          e: { type: "object", "x-kubernetes-embedded-resource": true, default: { apiVersion: "v1", kind: "K", metadata: { name: "n" } } },
        },
      },
    ],
    [
      "a default of a field ObjectMeta does not have, inside an embedded metadata, goes away",
      {
        type: "object",
        properties: {
          e: {
            type: "object",
            "x-kubernetes-embedded-resource": true,
            properties: {
              metadata: { type: "object", properties: { name: { ...str, default: "Bar" }, unknown: { ...str, default: "unknown" } } },
            },
          },
        },
      },
      {
        type: "object",
        properties: {
          e: {
            type: "object",
            "x-kubernetes-embedded-resource": true,
            properties: { metadata: { type: "object", properties: { name: { ...str, default: "Bar" }, unknown: str } } },
          },
        },
      },
    ],
    [
      "defaults of items and additionalProperties are pruned where they land",
      {
        type: "object",
        properties: {
          l: { type: "array", items: { type: "object", properties: { x: str }, default: { x: "1", y: "2" } } },
          m: { type: "object", additionalProperties: { type: "object", properties: { x: str }, default: { x: "1", y: "2" } } },
        },
      },
      {
        type: "object",
        properties: {
          l: { type: "array", items: { type: "object", properties: { x: str }, default: { x: "1" } } },
          m: { type: "object", additionalProperties: { type: "object", properties: { x: str }, default: { x: "1" } } },
        },
      },
    ],
  ])("%s", (_name, schema, want) => {
    const before = structuredClone(schema);
    expect(pruneDefaults(schema)).toEqual(want);
    expect(schema).toEqual(before);
  });
});
