/**
 * The PodDisruptionBudget side of pkg/registry/core/pod/storage/eviction.go: which budgets guard a
 * Pod (`getPodDisruptionBudgets`), and the verify-and-decrement of one (`checkAndDecrement`) that
 * writes the budget's status with its resourceVersion, so two evictions cannot spend one disruption.
 */
import { labelSelectorAsSelector, StatusError, formatTime } from "@servicenet/api";
import { disruptionBudgetCause, updateDisruptionAllowedCondition, type PodDisruptionBudget } from "@servicenet/api/policy/v1";
import type { KubeObject } from "../../../../storage/index.ts";
import type { GenericStore } from "../../../generic/store.ts";

export type PDB = PodDisruptionBudget & KubeObject;

/**
 * `MaxDisruptedPodSize`: more approved evictions than this, not yet seen by the disruption
 * controller, and the budget refuses more.
 */
export const maxDisruptedPodSize = 2000;

/** podutil `IsPodReady`: the Ready condition is True. */
export function isPodReady(pod: KubeObject): boolean {
  const conditions = ((pod["status"] ?? {}) as { conditions?: { type: string; status: string }[] }).conditions ?? [];
  return conditions.some((c) => c.type === "Ready" && c.status === "True");
}

/** `createTooManyRequestsError`: the 429 (retry after 10 s) while a budget is not yet processed. */
export function tooManyRequests(name: string): StatusError {
  const e = StatusError.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10);
  e.status.details = {
    ...e.status.details,
    causes: [{ reason: disruptionBudgetCause, message: `The disruption budget ${name} is still being processed by the server.` }],
  };
  return e;
}

const forbidden = (name: string, detail: string): StatusError =>
  StatusError.forbidden({ group: "policy", resource: "poddisruptionbudget" }, name, detail);

/** The budgets of the Pod's namespace whose selector matches its labels (an invalid selector matches nothing). */
export async function getPodDisruptionBudgets(pdbs: GenericStore, pod: KubeObject): Promise<PDB[]> {
  const { items } = await pdbs.list(pod.metadata.namespace);
  return (items as PDB[]).filter((pdb) => {
    if (pdb.metadata.namespace !== pod.metadata.namespace) return false;
    try {
      return labelSelectorAsSelector(pdb.spec.selector)(pod.metadata.labels as Record<string, string> | undefined);
    } catch {
      return false;
    }
  });
}

/**
 * `checkAndDecrement`: a 429 while the budget's status is older than its spec or allows no
 * disruption, 403 for a negative count or an overfull `disruptedPods`; otherwise one disruption is
 * spent and, unless dry-run, written through the status subresource under the budget's
 * resourceVersion (a Conflict when another eviction was first).
 */
export async function checkAndDecrement(pdbs: GenericStore, podName: string, read: PDB, dryRun: boolean, now = new Date()): Promise<void> {
  const pdb = structuredClone(read);
  const name = pdb.metadata.name ?? "";
  const status = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw tooManyRequests(name);
  if (status.disruptionsAllowed < 0) throw forbidden(name, "pdb disruptions allowed is negative");
  if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPodSize)
    throw forbidden(name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller");
  if (status.disruptionsAllowed === 0) {
    const e = StatusError.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0);
    e.status.details = {
      ...e.status.details,
      causes: [
        {
          reason: disruptionBudgetCause,
          message: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
        },
      ],
    };
    throw e;
  }
  status.disruptionsAllowed--;
  if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, now);
  if (dryRun) return;
  // The disruption controller counts this Pod as gone until it is, or until the entry expires.
  status.disruptedPods = { ...status.disruptedPods, [podName]: formatTime(now) };
  pdb.status = status;
  await pdbs.update(pdb.metadata.namespace, name, async () => structuredClone(pdb), { subresource: "status" });
}
