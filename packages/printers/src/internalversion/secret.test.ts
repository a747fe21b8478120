/** printers.go printSecret (NAME TYPE DATA AGE) and printServiceAccount (NAME SECRETS AGE). */
import type { Secret, ServiceAccount } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { printSecretTable, printServiceAccountTable, secretHandler, serviceAccountHandler } from "./secret.ts";

const now = new Date("2025-06-01T12:00:00Z");
const created = new Date(now.getTime() - 3 * 24 * 3600 * 1000).toISOString();

describe("printSecret", () => {
  it("has upstream's columns", () => {
    expect(secretHandler.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ["Name", "string", "name"],
      ["Type", "string", ""],
      ["Data", "string", ""],
      ["Age", "string", ""],
    ]);
  });

  it.each<[string, Partial<Secret>, string, number]>([
    ["no data", { type: "Opaque" }, "Opaque", 0],
    ["tls", { type: "kubernetes.io/tls", data: { "tls.crt": "YQ==", "tls.key": "Yg==" } }, "kubernetes.io/tls", 2],
    ["type unset", { data: { a: "" } }, "", 1],
  ])("%s", (_name, s, type, data) => {
    const table = printSecretTable([{ metadata: { name: "s", creationTimestamp: created }, ...s }], { now });
    expect(table.rows.map((r) => r.cells)).toEqual([["s", type, data, "3d"]]);
  });
});

describe("printServiceAccount", () => {
  it("has upstream's columns", () => {
    expect(serviceAccountHandler.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ["Name", "string", "name"],
      ["Secrets", "string", ""],
      ["Age", "string", ""],
    ]);
  });

  it.each<[string, Partial<ServiceAccount>, number]>([
    ["none", {}, 0],
    ["two references", { secrets: [{ name: "a" }, { name: "b" }], imagePullSecrets: [{ name: "c" }] }, 2],
  ])("%s", (_name, sa, n) => {
    const table = printServiceAccountTable([{ metadata: { name: "default", creationTimestamp: created }, ...sa }], { now });
    expect(table.rows.map((r) => r.cells)).toEqual([["default", n, "3d"]]);
  });
});
