/**
 * printers_test.go TestPrintValidatingAdmissionPolicy, TestPrintValidatingAdmissionPolicyBinding,
 * TestPrintMutatingWebhook and TestPrintValidatingWebhook (their cases in miniature).
 */
import { describe, expect, it } from "vitest";
import type { ParamRef, ValidatingWebhookConfiguration } from "@servicenet/api/admissionregistration/v1";
import { generateTable, type TableHandler } from "../tablegenerator.ts";
import {
  mutatingWebhookConfigurationHandler,
  validatingAdmissionPolicyBindingHandler,
  validatingAdmissionPolicyHandler,
  validatingWebhookConfigurationHandler,
} from "./admissionregistration.ts";

const now = new Date("2025-01-01T00:00:00Z");
const created = new Date(now.getTime() - 3600_000 * 24 * 365 * 19).toISOString();
const cells = (t: { rows?: { cells: unknown[] }[] }): unknown[][] => (t.rows ?? []).map((r) => r.cells);

describe("TestPrintValidatingAdmissionPolicy", () => {
  it.each([
    [
      "without paramKind",
      { metadata: { name: "p", creationTimestamp: created }, spec: { validations: [{ expression: "true" }] } },
      ["p", 1, "<unset>", "19y"],
    ],
    [
      "with paramKind",
      { metadata: { name: "p2", creationTimestamp: created }, spec: { paramKind: { apiVersion: "v1", kind: "ConfigMap" } } },
      ["p2", 0, "v1/ConfigMap", "19y"],
    ],
  ])("%s", (_name, p, want) => {
    expect(cells(generateTable(validatingAdmissionPolicyHandler, [p], { now }))).toEqual([want]);
  });

  it("has upstream's columns", () => {
    expect(validatingAdmissionPolicyHandler.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ["Name", "string"],
      ["Validations", "integer"],
      ["ParamKind", "string"],
      ["Age", "string"],
    ]);
  });
});

describe("TestPrintValidatingAdmissionPolicyBinding", () => {
  const b = (paramRef: ParamRef | undefined) => ({
    metadata: { name: "b", creationTimestamp: created },
    spec: { policyName: "p", paramRef },
  });
  it.each([
    ["without paramRef", b(undefined), "<unset>"],
    ["name and namespace", b({ name: "cm", namespace: "ns" }), "ns/cm"],
    ["name only", b({ name: "cm" }), "*/cm"],
    [
      "selector",
      b({ selector: { matchLabels: { b: "2", a: "1" }, matchExpressions: [{ key: "k", operator: "In", values: ["x", "y"] }] } }),
      "&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}",
    ],
  ])("%s", (_name, binding, want) => {
    expect(cells(generateTable(validatingAdmissionPolicyBindingHandler, [binding], { now }))).toEqual([["b", "p", want, "19y"]]);
  });
});

// Both kinds share one handler shape; the validating kind's type stands for both here.
const webhookHandlers: [string, TableHandler<ValidatingWebhookConfiguration>][] = [
  ["TestPrintValidatingWebhook", validatingWebhookConfigurationHandler],
  ["TestPrintMutatingWebhook", mutatingWebhookConfigurationHandler as unknown as TableHandler<ValidatingWebhookConfiguration>],
];

describe.each(webhookHandlers)("%s", (_name, handler) => {
  it("prints NAME WEBHOOKS AGE", () => {
    const hook = { name: "a.b.c", clientConfig: {} };
    const configs = [
      { metadata: { name: "none", creationTimestamp: created } },
      { metadata: { name: "two", creationTimestamp: created }, webhooks: [hook, { ...hook, name: "d.e.f" }] },
    ];
    expect(cells(generateTable(handler, configs, { now }))).toEqual([
      ["none", 0, "19y"],
      ["two", 2, "19y"],
    ]);
    expect(handler.columnDefinitions.map((c) => [c.name, c.type, c.description])).toEqual([
      ["Name", "string", expect.stringContaining("Name must be unique within a namespace")],
      ["Webhooks", "integer", "Webhooks indicates the number of webhooks registered in this configuration"],
      ["Age", "string", expect.stringContaining("CreationTimestamp")],
    ]);
  });
});
