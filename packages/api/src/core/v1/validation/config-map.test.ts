import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import type { ConfigMap } from "../config-map.ts";
import { base64DecodedLength, validateConfigMap, validateConfigMapUpdate } from "./config-map.ts";

const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString("base64");

function newConfigMap(name: string, namespace: string, data?: Record<string, string>, binaryData?: Record<string, string>): ConfigMap {
  return { metadata: { name, namespace }, data, binaryData };
}

const maxSize = 1024 * 1024;
const keyRegexMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

// upstream TestValidateConfigMap's rows (pkg/apis/core/validation), with the errors 1.33 reports.
describe("TestValidateConfigMap", () => {
  it.each<[string, ConfigMap, string[]]>([
    ["valid", newConfigMap("validname", "validns", { key: "value" }, { bin: b64("value") }), []],
    ["max key length", newConfigMap("validname", "validns", { ["a".repeat(253)]: "value" }), []],
    ["leading dot key", newConfigMap("validname", "validns", { ".ab": "value" }), []],
    ["empty name", newConfigMap("", "validns"), ["metadata.name: Required value: name or generateName is required"]],
    [
      "invalid name",
      newConfigMap("NoUppercaseOrSpecialCharsLike=Equals", "validns"),
      [
        `metadata.name: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    ["invalid key", newConfigMap("validname", "validns", { "a*b": "value" }), [`data[a*b]: Invalid value: "a*b": ${keyRegexMsg}`]],
    ["empty namespace", newConfigMap("validname", ""), ["metadata.namespace: Required value"]],
    ["dot key", newConfigMap("validname", "validns", { ".": "value" }), [`data[.]: Invalid value: ".": must not be '.'`]],
    ["double dot key", newConfigMap("validname", "validns", { "..": "value" }), [`data[..]: Invalid value: "..": must not be '..'`]],
    [
      "over max key length",
      newConfigMap("validname", "validns", { ["a".repeat(254)]: "value" }),
      [`data[${"a".repeat(254)}]: Invalid value: "${"a".repeat(254)}": must be no more than 253 characters`],
    ],
    [
      "over max size",
      newConfigMap("validname", "validns", { key: "a".repeat(maxSize + 1) }),
      [": Too long: may not be more than 1048576 bytes"],
    ],
    [
      "duplicated key",
      newConfigMap("validname", "validns", { key: "value1" }, { key: b64("value2") }),
      [`data[key]: Invalid value: "key": duplicate of key present in binaryData`],
    ],
    [
      "binary data invalid key",
      newConfigMap("validname", "validns", undefined, { "a*b": b64("value") }),
      [`binaryData[a*b]: Invalid value: "a*b": ${keyRegexMsg}`],
    ],
    ["binary data leading dot key", newConfigMap("validname", "validns", undefined, { ".ab": b64("value") }), []],
    [
      "binary data dot key",
      newConfigMap("validname", "validns", undefined, { ".": b64("value") }),
      [`binaryData[.]: Invalid value: ".": must not be '.'`],
    ],
    [
      "binary data double dot key",
      newConfigMap("validname", "validns", undefined, { "..": b64("value") }),
      [`binaryData[..]: Invalid value: "..": must not be '..'`],
    ],
    [
      "binary data over max key length",
      newConfigMap("validname", "validns", undefined, { ["a".repeat(254)]: b64("value") }),
      [`binaryData[${"a".repeat(254)}]: Invalid value: "${"a".repeat(254)}": must be no more than 253 characters`],
    ],
    [
      "binary data max size",
      newConfigMap("validname", "validns", undefined, { bin: b64("a".repeat(maxSize + 1)) }),
      [": Too long: may not be more than 1048576 bytes"],
    ],
    ["binary data non utf-8 bytes", newConfigMap("validname", "validns", undefined, { key: b64(new Uint8Array([0, 0xfe, 0, 0xff])) }), []],
    // Beyond upstream's rows: the limit is on data and binaryData together, in bytes.
    ["exactly max size across both bags", newConfigMap("validname", "validns", { a: "a".repeat(maxSize - 2) }, { b: b64("bb") }), []],
    [
      "multi-byte values count as UTF-8 bytes",
      newConfigMap("validname", "validns", { a: "é".repeat(maxSize / 2 + 1) }),
      [": Too long: may not be more than 1048576 bytes"],
    ],
    [
      "starts with dot dot",
      newConfigMap("validname", "validns", { "..a": "v" }),
      [`data[..a]: Invalid value: "..a": must not start with '..'`],
    ],
  ])("%s", (_name, cfg, want) => expect(validateConfigMap(cfg).map(fieldErrorString)).toEqual(want));
});

function versioned(version: string, cfg: Partial<ConfigMap>): ConfigMap {
  return { metadata: { name: "validname", namespace: "validns", resourceVersion: version }, data: { key: "value" }, ...cfg };
}

const immutable = "field is immutable when `immutable` is set";

// upstream TestValidateConfigMapUpdate's rows, and the `immutable` rules of ValidateConfigMapUpdate.
describe("TestValidateConfigMapUpdate", () => {
  it.each<[string, ConfigMap, ConfigMap, string[]]>([
    ["valid", versioned("1", {}), versioned("1", {}), []],
    ["invalid", versioned("", {}), versioned("1", {}), ['metadata.resourceVersion: Invalid value: "": must be specified for an update']],
    ["immutable unchanged", versioned("1", { immutable: true }), versioned("1", { immutable: true }), []],
    ["mutable may become immutable", versioned("1", { immutable: true, data: { k: "v" } }), versioned("1", {}), []],
    ["immutable unset", versioned("1", {}), versioned("1", { immutable: true }), [`immutable: Forbidden: ${immutable}`]],
    [
      "immutable set false",
      versioned("1", { immutable: false }),
      versioned("1", { immutable: true }),
      [`immutable: Forbidden: ${immutable}`],
    ],
    [
      "data changed",
      versioned("1", { immutable: true, data: { key: "other" } }),
      versioned("1", { immutable: true }),
      [`data: Forbidden: ${immutable}`],
    ],
    [
      "data removed",
      versioned("1", { immutable: true, data: undefined }),
      versioned("1", { immutable: true }),
      [`data: Forbidden: ${immutable}`],
    ],
    [
      "binaryData added",
      versioned("1", { immutable: true, binaryData: { bin: b64("x") } }),
      versioned("1", { immutable: true }),
      [`binaryData: Forbidden: ${immutable}`],
    ],
    [
      "everything at once",
      versioned("1", { data: {}, binaryData: { b: b64("x") } }),
      versioned("1", { immutable: true }),
      [`immutable: Forbidden: ${immutable}`, `data: Forbidden: ${immutable}`, `binaryData: Forbidden: ${immutable}`],
    ],
    [
      "new content still validated",
      versioned("1", { data: { "a*b": "v" } }),
      versioned("1", {}),
      [`data[a*b]: Invalid value: "a*b": ${keyRegexMsg}`],
    ],
  ])("%s", (_name, cfg, old, want) => expect(validateConfigMapUpdate(cfg, old).map(fieldErrorString)).toEqual(want));
});

describe("base64DecodedLength", () => {
  it.each([[""], ["a"], ["ab"], ["abc"], ["abcd"], ["\u0000\u00fe\u0000\u00ff"]])("%j", (s) =>
    expect(base64DecodedLength(b64(s))).toBe(Buffer.from(s).length),
  );
});
