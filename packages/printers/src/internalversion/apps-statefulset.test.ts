/** pkg/printers/internalversion/printers_test.go: TestPrintStatefulSet, TestPrintControllerRevision. */
import type { ControllerRevision, StatefulSet } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { controllerRevisionHandler, statefulSetHandler } from "./apps-statefulset.ts";

const now = new Date("2025-01-01T00:10:00Z");
const metadata = { name: "test1", creationTimestamp: "2025-01-01T00:00:00Z" };

describe("TestPrintStatefulSet", () => {
  const sts: StatefulSet = {
    metadata,
    spec: {
      replicas: 5,
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
    status: { replicas: 5, readyReplicas: 2, availableReplicas: 1 },
  };
  it("prints NAME READY AGE", () => {
    expect(statefulSetHandler.printRow(sts, { wide: false, now })).toEqual(["test1", "2/5", "10m"]);
  });
  it("prints CONTAINERS IMAGES with -o wide", () => {
    expect(statefulSetHandler.printRow(sts, { wide: true, now })).toEqual([
      "test1",
      "2/5",
      "10m",
      "fake-container1,fake-container2",
      "fake-image1,fake-image2",
    ]);
    expect(statefulSetHandler.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Ready", "Age", "Containers", "Images"]);
  });
});

describe("TestPrintControllerRevision", () => {
  const owned = (apiVersion: string, kind: string, controller: boolean): ControllerRevision => ({
    metadata: { ...metadata, ownerReferences: [{ apiVersion, kind, name: "test", uid: "u", controller }] },
    revision: 1,
  });
  it.each<[string, ControllerRevision, unknown[]]>([
    ["a StatefulSet's", owned("apps/v1", "StatefulSet", true), ["test1", "statefulset.apps/test", 1, "10m"]],
    ["a DaemonSet's", owned("apps/v1", "DaemonSet", true), ["test1", "daemonset.apps/test", 1, "10m"]],
    ["an owner that is no controller", owned("apps/v1", "DaemonSet", false), ["test1", "<none>", 1, "10m"]],
    ["a core kind", owned("v1", "Pod", true), ["test1", "pod/test", 1, "10m"]],
    ["no owner", { metadata, revision: 3 }, ["test1", "<none>", 3, "10m"]],
  ])("%s", (_name, cr, want) => {
    expect(controllerRevisionHandler.printRow(cr, { wide: false, now })).toEqual(want);
  });
});
