import { describe, expect, it } from "vitest";
import { fitErrorMessage } from "./fit-error.ts";
import { status } from "./types.ts";

describe("FitError.Error", () => {
  it("sorts the reason histogram and adds what preemption found", () => {
    const msg = fitErrorMessage(3, [
      status("NodeResourcesFit", "Unschedulable", "Insufficient cpu"),
      status("TaintToleration", "UnschedulableAndUnresolvable", "node(s) had untolerated taint {machine-check-exception: memory}"),
      status("NodeResourcesFit", "Unschedulable", "Insufficient cpu"),
    ]);
    expect(msg).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {machine-check-exception: memory}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    );
  });
  it("counts every reason of a Node", () => {
    expect(fitErrorMessage(1, [status("NodeResourcesFit", "Unschedulable", "Insufficient cpu", "Insufficient memory")])).toBe(
      "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    );
  });
});
