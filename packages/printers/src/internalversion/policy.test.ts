/** printers.go printPodDisruptionBudget: NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE. */
import { describe, expect, it } from "vitest";
import { podDisruptionBudgetHandler, printPodDisruptionBudgetTable } from "./policy.ts";

const now = new Date("2025-06-01T12:00:00Z");
const created = new Date(now.getTime() - 3 * 60 * 1000).toISOString();

describe("printPodDisruptionBudget", () => {
  it("has upstream's columns", () => {
    expect(podDisruptionBudgetHandler.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ["Name", "string", "name"],
      ["Min Available", "string", ""],
      ["Max Unavailable", "string", ""],
      ["Allowed Disruptions", "integer", ""],
      ["Age", "string", ""],
    ]);
  });

  it("prints the bound that is set, N/A for the other, and the allowed disruptions", () => {
    const table = printPodDisruptionBudgetTable(
      [
        {
          metadata: { name: "web", creationTimestamp: created },
          spec: { minAvailable: 2 },
          status: { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 },
        },
        { metadata: { name: "db", creationTimestamp: created }, spec: { maxUnavailable: "25%" } },
      ],
      { now },
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["web", "2", "N/A", 1, "3m"],
      ["db", "N/A", "25%", 0, "3m"],
    ]);
  });
});
