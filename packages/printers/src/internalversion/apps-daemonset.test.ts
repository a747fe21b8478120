/** pkg/printers/internalversion/printers_test.go: TestPrintDaemonSet. */
import type { DaemonSet } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { daemonSetHandler } from "./apps-daemonset.ts";

const now = new Date("2025-01-01T00:10:00Z");

describe("TestPrintDaemonSet", () => {
  const ds: DaemonSet = {
    metadata: { name: "test1", creationTimestamp: "2025-01-01T00:00:00Z" },
    spec: {
      selector: { matchLabels: { foo: "bar" } },
      template: {
        metadata: {},
        spec: {
          containers: [
            { name: "fake-container1", image: "fake-image1" },
            { name: "fake-container2", image: "fake-image2" },
          ],
        },
      },
    },
    status: {
      currentNumberScheduled: 2,
      desiredNumberScheduled: 3,
      numberReady: 1,
      updatedNumberScheduled: 2,
      numberAvailable: 0,
      numberMisscheduled: 0,
    },
  };
  it("prints NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE", () => {
    expect(daemonSetHandler.printRow(ds, { wide: false, now })).toEqual(["test1", 3, 2, 1, 2, 0, "<none>", "10m"]);
    expect(daemonSetHandler.columnDefinitions.map((c) => c.name)).toEqual([
      "Name",
      "Desired",
      "Current",
      "Ready",
      "Up-to-date",
      "Available",
      "Node Selector",
      "Age",
      "Containers",
      "Images",
      "Selector",
    ]);
  });
  it("prints the node selector and, with -o wide, CONTAINERS IMAGES SELECTOR", () => {
    const withSelector = structuredClone(ds);
    (withSelector.spec.template.spec as Record<string, unknown>)["nodeSelector"] = { "kubernetes.io/os": "linux" };
    expect(daemonSetHandler.printRow(withSelector, { wide: true, now })).toEqual([
      "test1",
      3,
      2,
      1,
      2,
      0,
      "kubernetes.io/os=linux",
      "10m",
      "fake-container1,fake-container2",
      "fake-image1,fake-image2",
      "foo=bar",
    ]);
  });
});
