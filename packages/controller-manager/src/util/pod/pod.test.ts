/** The Pod status patch, after pkg/util/pod/pod_test.go TestPatchPodStatus. */
import { describe, expect, it } from "vitest";
import type { PodStatus } from "@servicenet/api";
import { podStatusPatch } from "./pod.ts";

const uid = "myuid";
const base: PodStatus = {
  phase: "Running",
  conditions: [
    { type: "Ready", status: "True" },
    { type: "PodScheduled", status: "True" },
  ],
  podIPs: [{ ip: "10.0.0.1" }],
};

describe("podStatusPatch", () => {
  it.each<[string, PodStatus, Record<string, unknown>]>([
    ["no change", base, { metadata: { uid } }],
    ["message change", { ...base, message: "random message" }, { metadata: { uid }, status: { message: "random message" } }],
    [
      "pod condition change",
      { ...base, conditions: [{ type: "Ready", status: "False" }, base.conditions![1]!] },
      {
        metadata: { uid },
        status: {
          "$setElementOrder/conditions": [{ type: "Ready" }, { type: "PodScheduled" }],
          conditions: [{ type: "Ready", status: "False" }],
        },
      },
    ],
    [
      "pod condition added",
      { ...base, conditions: [...base.conditions!, { type: "DisruptionTarget", status: "True", reason: "DeletionByTaintManager" }] },
      {
        metadata: { uid },
        status: {
          "$setElementOrder/conditions": [{ type: "Ready" }, { type: "PodScheduled" }, { type: "DisruptionTarget" }],
          conditions: [{ type: "DisruptionTarget", status: "True", reason: "DeletionByTaintManager" }],
        },
      },
    ],
    [
      "pod condition removed, an IP added, phase dropped",
      { conditions: [base.conditions![1]!], podIPs: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }] },
      {
        metadata: { uid },
        status: {
          phase: null,
          "$setElementOrder/conditions": [{ type: "PodScheduled" }],
          conditions: [{ $patch: "delete", type: "Ready" }],
          "$setElementOrder/podIPs": [{ ip: "10.0.0.1" }, { ip: "fd00::1" }],
          podIPs: [{ ip: "fd00::1" }],
        },
      },
    ],
  ])("TestPatchPodStatus: %s", (_name, modified, want) => {
    const { patch, unchanged } = podStatusPatch(uid, base, modified);
    expect(patch).toEqual(want);
    expect(unchanged).toBe(Object.keys(want).length === 1);
  });
});
