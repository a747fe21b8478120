import { describe, expect, it } from "vitest";
import { finalizersPatch } from "./servicecidrs-client.ts";

const protection = "networking.k8s.io/service-cidr-finalizer";

// servicecidrs_controller.go addServiceCIDRFinalizerIfNeeded / removeServiceCIDRFinalizerIfNeeded.
describe("finalizersPatch", () => {
  it.each([
    ["adds the protection finalizer", [], [protection], { metadata: { finalizers: [protection] } }],
    ["keeps others untouched when adding", ["other"], ["other", protection], { metadata: { finalizers: [protection] } }],
    [
      "removes it with $deleteFromPrimitiveList",
      ["other", protection],
      ["other"],
      { metadata: { "$deleteFromPrimitiveList/finalizers": [protection] } },
    ],
    ["sends nothing when nothing changes", [protection], [protection], { metadata: {} }],
  ])("%s", (_name, before, after, want) => {
    expect(finalizersPatch(before, after)).toEqual(want);
  });
});
