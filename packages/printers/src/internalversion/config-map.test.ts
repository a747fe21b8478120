/** printers.go printConfigMap: NAME DATA AGE, DATA = len(data) + len(binaryData). */
import type { ConfigMap } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { configMapHandler, printConfigMapTable } from "./config-map.ts";

const now = new Date("2025-06-01T12:00:00Z");
const created = new Date(now.getTime() - 3 * 24 * 3600 * 1000).toISOString();

describe("printConfigMap", () => {
  it("has upstream's columns", () => {
    expect(configMapHandler.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ["Name", "string", "name"],
      ["Data", "string", ""],
      ["Age", "string", ""],
    ]);
  });

  it.each<[string, Partial<ConfigMap>, number]>([
    ["empty", {}, 0],
    ["data only", { data: { a: "1", b: "2" } }, 2],
    ["binaryData only", { binaryData: { bin: "AAE=" } }, 1],
    ["both bags", { data: { a: "1" }, binaryData: { bin: "AAE=", other: "" } }, 3],
  ])("%s", (_name, cm, data) => {
    const table = printConfigMapTable([{ metadata: { name: "cm", creationTimestamp: created }, ...cm }], { now });
    expect(table.rows.map((r) => r.cells)).toEqual([["cm", data, "3d"]]);
  });
});
