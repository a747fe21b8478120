import { describe, expect, it } from "vitest";
import type { RESTStrategy } from "../../generic/strategy.ts";
import { podStrategy } from "./strategy.ts";

// Decoded bodies are checked by the strategy as stored: any JSON, not only a well-typed Pod.
const untyped: RESTStrategy = podStrategy;

// Upstream pkg/registry/core/pod/strategy.go PodToSelectableFields: typed strings and
// strconv.FormatBool(spec.hostNetwork); a decoded value of the wrong type selects as the zero value.
describe("podStrategy.selectableFields", () => {
  it("reads the string fields and formats hostNetwork as a bool", () => {
    const f = untyped.selectableFields!({
      metadata: { name: "p" },
      spec: { nodeName: "n1", hostNetwork: true },
      status: { phase: "Running" },
    });
    expect(f).toMatchObject({ "spec.nodeName": "n1", "spec.hostNetwork": "true", "status.phase": "Running", "spec.restartPolicy": "" });
  });

  it("selects a non-string field as empty and a non-boolean hostNetwork as false", () => {
    const f = untyped.selectableFields!({
      metadata: { name: "p" },
      spec: { nodeName: { x: 1 }, hostNetwork: "yes" },
      status: { podIP: 7 },
    });
    expect(f).toMatchObject({ "spec.nodeName": "", "spec.hostNetwork": "false", "status.podIP": "" });
  });
});
