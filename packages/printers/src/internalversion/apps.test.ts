/** pkg/printers/internalversion/printers_test.go: TestPrintDeployment, TestPrintReplicaSet. */
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { deploymentHandler, replicaSetHandler } from "./apps.ts";

const now = new Date("2025-01-01T00:10:00Z");
const metadata = { name: "test1", creationTimestamp: "2025-01-01T00:00:00Z" };
const template = {
  metadata: {},
  spec: {
    containers: [
      { name: "fake-container1", image: "fake-image1" },
      { name: "fake-container2", image: "fake-image2" },
    ],
  },
};

describe("TestPrintDeployment", () => {
  const d: Deployment = {
    metadata,
    spec: { replicas: 5, template, selector: { matchLabels: { foo: "bar" } } },
    status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 },
  };
  it("prints NAME READY UP-TO-DATE AVAILABLE AGE", () => {
    expect(deploymentHandler.printRow(d, { wide: false, now })).toEqual(["test1", "0/5", 2, 1, "10m"]);
  });
  it("prints CONTAINERS IMAGES SELECTOR with -o wide", () => {
    expect(deploymentHandler.printRow(d, { wide: true, now })).toEqual([
      "test1",
      "0/5",
      2,
      1,
      "10m",
      "fake-container1,fake-container2",
      "fake-image1,fake-image2",
      "foo=bar",
    ]);
  });
  it("names the columns as upstream", () => {
    expect(deploymentHandler.columnDefinitions.map((c) => c.name)).toEqual([
      "Name",
      "Ready",
      "Up-to-date",
      "Available",
      "Age",
      "Containers",
      "Images",
      "Selector",
    ]);
  });
});

describe("TestPrintReplicaSet", () => {
  const rs: ReplicaSet = {
    metadata,
    spec: {
      replicas: 5,
      template,
      selector: { matchLabels: { foo: "bar" }, matchExpressions: [{ key: "env", operator: "In", values: ["prod", "dev"] }] },
    },
    status: { replicas: 5, readyReplicas: 2 },
  };
  it("prints NAME DESIRED CURRENT READY AGE and the wide columns", () => {
    expect(replicaSetHandler.printRow(rs, { wide: false, now })).toEqual(["test1", 5, 5, 2, "10m"]);
    expect(replicaSetHandler.printRow(rs, { wide: true, now }).slice(5)).toEqual([
      "fake-container1,fake-container2",
      "fake-image1,fake-image2",
      "env in (dev,prod),foo=bar",
    ]);
  });
});
