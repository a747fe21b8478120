import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import type { ServiceAccount } from "../service-account.ts";
import { validateServiceAccount, validateServiceAccountUpdate } from "./service-account.ts";

const sa = (name: string, namespace = "ns", rest: Partial<ServiceAccount> = {}): ServiceAccount => ({
  metadata: { name, namespace },
  ...rest,
});

// ValidateServiceAccount: ValidateObjectMeta with ValidateServiceAccountName (a DNS subdomain); references are not checked.
describe("ValidateServiceAccount", () => {
  it.each<[string, ServiceAccount, string[]]>([
    ["valid", sa("default"), []],
    ["dotted name", sa("build.robot"), []],
    ["secrets and pull secrets unchecked", sa("x", "ns", { secrets: [{ name: "" }], imagePullSecrets: [{ name: "Bad_Name" }] }), []],
    ["empty name", sa(""), ["metadata.name: Required value: name or generateName is required"]],
    ["empty namespace", sa("x", ""), ["metadata.namespace: Required value"]],
    [
      "upper-case name",
      sa("Robot"),
      [
        `metadata.name: Invalid value: "Robot": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
  ])("%s", (_name, obj, want) => expect(validateServiceAccount(obj).map(fieldErrorString)).toEqual(want));
});

describe("ValidateServiceAccountUpdate", () => {
  const old = { metadata: { name: "x", namespace: "ns", resourceVersion: "1" } };
  it.each<[string, ServiceAccount, string[]]>([
    ["secrets changed", { ...old, secrets: [{ name: "s" }] }, []],
    ["renamed", { metadata: { ...old.metadata, name: "y" } }, ['metadata.name: Invalid value: "y": field is immutable']],
    ["no resourceVersion", sa("x"), ['metadata.resourceVersion: Invalid value: "": must be specified for an update']],
  ])("%s", (_name, obj, want) => expect(validateServiceAccountUpdate(obj, old).map(fieldErrorString)).toEqual(want));
});
