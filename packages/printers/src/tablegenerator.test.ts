/** GenerateTable (pkg/printers/tablegenerator.go) and the includeObject row objects. */
import type { Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { printServiceTable } from "./internalversion/service.ts";

const now = new Date("2025-01-01T00:10:00Z");
const svc: Service = {
  metadata: { name: "web", namespace: "default", creationTimestamp: "2025-01-01T00:00:00Z" },
  spec: { type: "ClusterIP", clusterIP: "10.0.0.1" },
};

describe("generateTable", () => {
  it("wide keeps the priority-1 columns; without wide they are dropped with their cells", () => {
    expect(printServiceTable([svc], { wide: true, now }).columnDefinitions.map((c) => c.name)).toEqual([
      "Name",
      "Type",
      "Cluster-IP",
      "External-IP",
      "Port(s)",
      "Age",
      "Selector",
    ]);
    const narrow = printServiceTable([svc], { now });
    expect(narrow.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age"]);
    expect(narrow.rows[0]?.cells).toHaveLength(6);
  });

  it("noHeaders leaves the column definitions out, not the rows", () => {
    const t = printServiceTable([svc], { wide: true, noHeaders: true, now });
    expect(t.columnDefinitions).toEqual([]);
    expect(t.rows).toHaveLength(1);
  });

  it("includeObject: Object (default), Metadata, None", () => {
    expect(printServiceTable([svc], { now }).rows[0]?.object).toBe(svc);
    expect(printServiceTable([svc], { now, includeObject: "Metadata" }).rows[0]?.object).toEqual({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1",
      metadata: svc.metadata,
    });
    expect(printServiceTable([svc], { now, includeObject: "None" }).rows[0]).toEqual({
      cells: ["web", "ClusterIP", "10.0.0.1", "<none>", "<none>", "10m"],
    });
  });

  it("copies ListMeta", () => {
    expect(printServiceTable([], { listMeta: { resourceVersion: "42", continue: "c" } })).toEqual({
      kind: "Table",
      apiVersion: "meta.k8s.io/v1",
      metadata: { resourceVersion: "42", continue: "c" },
      columnDefinitions: expect.any(Array),
      rows: [],
    });
  });
});
