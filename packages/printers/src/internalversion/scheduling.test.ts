/** printers.go printPriorityClass: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY. */
import { describe, expect, it } from "vitest";
import { printPriorityClassTable, priorityClassHandler } from "./scheduling.ts";

const now = new Date("2025-06-01T12:00:00Z");
const created = new Date(now.getTime() - 5 * 60 * 1000).toISOString();

describe("printPriorityClass", () => {
  it("has upstream's columns", () => {
    expect(priorityClassHandler.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ["Name", "string", "name"],
      ["Value", "integer", ""],
      ["Global-Default", "boolean", ""],
      ["Age", "string", ""],
      ["PreemptionPolicy", "string", ""],
    ]);
  });

  it("prints value, globalDefault (false when unset) and the policy", () => {
    const table = printPriorityClassTable(
      [
        {
          metadata: { name: "system-node-critical", creationTimestamp: created },
          value: 2000001000,
          preemptionPolicy: "PreemptLowerPriority",
        },
        { metadata: { name: "low", creationTimestamp: created }, value: -10, globalDefault: true },
      ],
      { now },
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["system-node-critical", 2000001000, false, "5m", "PreemptLowerPriority"],
      ["low", -10, true, "5m", ""],
    ]);
  });
});
