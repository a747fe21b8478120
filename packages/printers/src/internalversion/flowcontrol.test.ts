/** printers_test.go TestPrintFlowSchema and TestPrintPriorityLevelConfiguration (their cases in miniature). */
import { describe, expect, it } from "vitest";
import { generateTable } from "../tablegenerator.ts";
import { flowSchemaHandler, priorityLevelConfigurationHandler } from "./flowcontrol.ts";

const now = new Date("2025-01-01T00:00:00Z");
const created = new Date(now.getTime() - 3600_000 * 24 * 365 * 19).toISOString();
const cells = (t: { rows?: { cells: unknown[] }[] }): unknown[][] => (t.rows ?? []).map((r) => r.cells);

describe("TestPrintFlowSchema", () => {
  it.each([
    [
      "without a distinguisher or status",
      {
        metadata: { name: "all-matcher", creationTimestamp: created },
        spec: { priorityLevelConfiguration: { name: "allee" }, matchingPrecedence: 1000, rules: [] },
      },
      ["all-matcher", "allee", 1000, "<none>", "19y", "?"],
    ],
    [
      "ByUser and Dangling False",
      {
        metadata: { name: "some-matcher", creationTimestamp: created },
        spec: { priorityLevelConfiguration: { name: "allee" }, matchingPrecedence: 0, distinguisherMethod: { type: "ByUser" } },
        status: { conditions: [{ type: "Dangling", status: "False" }] },
      },
      ["some-matcher", "allee", 0, "ByUser", "19y", "False"],
    ],
  ])("%s", (_name, fs, want) => {
    expect(cells(generateTable(flowSchemaHandler, [fs], { now }))).toEqual([want]);
  });
});

describe("TestPrintPriorityLevelConfiguration", () => {
  it.each([
    [
      "exempt",
      { metadata: { name: "unlimited", creationTimestamp: created }, spec: { type: "Exempt" } },
      ["unlimited", "Exempt", "<none>", "<none>", "<none>", "<none>", "19y"],
    ],
    [
      "limited, reject",
      {
        metadata: { name: "unqueued", creationTimestamp: created },
        spec: { type: "Limited", limited: { nominalConcurrencyShares: 47, limitResponse: { type: "Reject" } } },
      },
      ["unqueued", "Limited", 47, "<none>", "<none>", "<none>", "19y"],
    ],
    [
      "limited, queuing",
      {
        metadata: { name: "queued", creationTimestamp: created },
        spec: {
          type: "Limited",
          limited: {
            nominalConcurrencyShares: 42,
            limitResponse: { type: "Queue", queuing: { queues: 8, handSize: 3, queueLengthLimit: 4 } },
          },
        },
      },
      ["queued", "Limited", 42, 8, 3, 4, "19y"],
    ],
  ])("%s", (_name, pl, want) => {
    expect(cells(generateTable(priorityLevelConfigurationHandler, [pl], { now }))).toEqual([want]);
  });
});
