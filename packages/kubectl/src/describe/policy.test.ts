/**
 * describePodDisruptionBudgetV1 against what real kubectl 1.33 printed for the same objects
 * (`kubectl describe pdb` against the servicenet apiserver, events search empty).
 */
import { describe, expect, it } from "vitest";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import { describePodDisruptionBudget } from "./policy.ts";

const zero = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
const pdb = (name: string, spec: PodDisruptionBudget["spec"], status = zero): PodDisruptionBudget => ({
  metadata: { name, namespace: "default" },
  spec,
  status,
});

describe("describePodDisruptionBudget (kubectl 1.33 golden)", () => {
  it.each<[string, PodDisruptionBudget, string]>([
    [
      "minAvailable",
      pdb(
        "web",
        { minAvailable: 2, selector: { matchLabels: { app: "web" } } },
        { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 },
      ),
      "Name:           web\nNamespace:      default\nMin available:  2\nSelector:       app=web\nStatus:\n    Allowed disruptions:  1\n    Current:              3\n    Desired:              2\n    Total:                3\nEvents:                   <none>\n",
    ],
    [
      "maxUnavailable and a set-based selector",
      pdb("db", {
        maxUnavailable: "25%",
        selector: { matchLabels: { app: "db", tier: "x" }, matchExpressions: [{ key: "env", operator: "NotIn", values: ["dev"] }] },
      }),
      "Name:             db\nNamespace:        default\nMax unavailable:  25%\nSelector:         app=db,env notin (dev),tier=x\nStatus:\n    Allowed disruptions:  0\n    Current:              0\n    Desired:              0\n    Total:                0\nEvents:                   <none>\n",
    ],
    [
      "no bound, no selector",
      pdb("none", {}),
      "Name:       none\nNamespace:  default\nSelector:   <unset>\nStatus:\n    Allowed disruptions:  0\n    Current:              0\n    Desired:              0\n    Total:                0\nEvents:                   <none>\n",
    ],
  ])("%s", (_name, obj, want) => {
    expect(describePodDisruptionBudget(obj, [])).toBe(want);
  });
});
