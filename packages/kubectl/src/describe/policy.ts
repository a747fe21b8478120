/** `kubectl describe poddisruptionbudget` (describe.go describePodDisruptionBudgetV1). */
import type { Event } from "@servicenet/api";
import { labelSelectorAsSelector, labelSelectorString } from "@servicenet/api";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import { maybeDescribeEvents, type DescribeOptions } from "./common.ts";
import { LEVEL_0, LEVEL_2, tabbedString } from "./prefix-writer.ts";

/** metav1.FormatLabelSelector: `<error>` for a selector that does not parse, `<none>` for an empty one. */
function formatLabelSelector(sel: NonNullable<PodDisruptionBudget["spec"]["selector"]>): string {
  try {
    labelSelectorAsSelector(sel);
  } catch {
    return "<error>";
  }
  const s = labelSelectorString(sel);
  return s === "" ? "<none>" : s;
}

/** Name, Namespace, the bound that is set (min first), the selector, the four status counts and the events. */
export function describePodDisruptionBudget(pdb: PodDisruptionBudget, events?: readonly Event[], opts: DescribeOptions = {}): string {
  const meta = pdb.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ""}\n`);
    if (pdb.spec.minAvailable !== undefined) w.write(LEVEL_0, `Min available:\t${String(pdb.spec.minAvailable)}\n`);
    else if (pdb.spec.maxUnavailable !== undefined) w.write(LEVEL_0, `Max unavailable:\t${String(pdb.spec.maxUnavailable)}\n`);
    const sel = pdb.spec.selector;
    w.write(LEVEL_0, `Selector:\t${sel !== undefined ? formatLabelSelector(sel) : "<unset>"}\n`);
    const st = pdb.status;
    w.write(LEVEL_0, "Status:\n");
    w.write(LEVEL_2, `Allowed disruptions:\t${st?.disruptionsAllowed ?? 0}\n`);
    w.write(LEVEL_2, `Current:\t${st?.currentHealthy ?? 0}\n`);
    w.write(LEVEL_2, `Desired:\t${st?.desiredHealthy ?? 0}\n`);
    w.write(LEVEL_2, `Total:\t${st?.expectedPods ?? 0}\n`);
    maybeDescribeEvents(events, w, opts);
  });
}
