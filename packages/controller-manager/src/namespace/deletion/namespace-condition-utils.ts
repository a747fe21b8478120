/**
 * Namespace deleter errors as status conditions (pkg/controller/namespace/deletion/namespace_condition_utils.go):
 * the five condition types are always written, True with what went wrong, else False with the
 * "ok" reason and message.
 */
import { namespaceConditionTypes as t, type Namespace, type NamespaceCondition, type NamespaceConditionType } from "@servicenet/api";
import { ErrGroupDiscoveryFailed, type GroupVersionResource } from "./discovery.ts";

/** The condition types the deleter maintains, in upstream's order. */
export const conditionTypes: readonly NamespaceConditionType[] = [
  t.DeletionDiscoveryFailure,
  t.DeletionGVParsingFailure,
  t.DeletionContentFailure,
  t.ContentRemaining,
  t.FinalizersRemaining,
];

const okMessages: Record<NamespaceConditionType, string> = {
  [t.DeletionDiscoveryFailure]: "All resources successfully discovered",
  [t.DeletionGVParsingFailure]: "All legacy kube types successfully parsed",
  [t.DeletionContentFailure]: "All content successfully deleted, may be waiting on finalization",
  [t.ContentRemaining]: "All content successfully removed",
  [t.FinalizersRemaining]: "All content-preserving finalizers finished",
};

const okReasons: Record<NamespaceConditionType, string> = {
  [t.DeletionDiscoveryFailure]: "ResourcesDiscovered",
  [t.DeletionGVParsingFailure]: "ParsedGroupVersions",
  [t.DeletionContentFailure]: "ContentDeleted",
  [t.ContentRemaining]: "ContentRemoved",
  [t.FinalizersRemaining]: "ContentHasNoFinalizers",
};

/** What remains after one pass: items per resource, and items per finalizer. */
export interface ContentTotals {
  gvrToNumRemaining: Map<GroupVersionResource, number>;
  finalizersToNumRemaining: Map<string, number>;
}

/** metav1.Now() as stored: RFC 3339, whole seconds. */
const now = (): string => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");

const failure = (type: NamespaceConditionType, reason: string, message: string): NamespaceCondition => ({
  type,
  status: "True",
  lastTransitionTime: now(),
  reason,
  message,
});

/** upstream namespaceConditionUpdater: collects the failures of one deleteAllContent pass. */
export class NamespaceConditionUpdater {
  private readonly newConditions: NamespaceCondition[] = [];
  private readonly deleteContentErrors: Error[] = [];

  processGroupVersionErr(err: Error): void {
    this.newConditions.push(failure(t.DeletionGVParsingFailure, "GroupVersionParsingFailed", err.message));
  }

  processDiscoverResourcesErr(err: Error): void {
    const msg =
      err instanceof ErrGroupDiscoveryFailed ? `Discovery failed for some groups, ${err.groups.size} failing: ${err.message}` : err.message;
    this.newConditions.push(failure(t.DeletionDiscoveryFailure, "DiscoveryFailed", msg));
  }

  processContentTotals(totals: ContentTotals): void {
    const resources = [...totals.gvrToNumRemaining]
      .filter(([, n]) => n !== 0)
      .map(([gvr, n]) => `${gvr.resource}.${gvr.group} has ${n} resource instances`)
      .sort();
    if (totals.gvrToNumRemaining.size !== 0)
      this.newConditions.push(failure(t.ContentRemaining, "SomeResourcesRemain", `Some resources are remaining: ${resources.join(", ")}`));
    const finalizers = [...totals.finalizersToNumRemaining]
      .filter(([, n]) => n !== 0)
      .map(([f, n]) => `${f} in ${n} resource instances`)
      .sort();
    if (totals.finalizersToNumRemaining.size !== 0)
      this.newConditions.push(
        failure(
          t.FinalizersRemaining,
          "SomeFinalizersRemain",
          `Some content in the namespace has finalizers remaining: ${finalizers.join(", ")}`,
        ),
      );
  }

  processDeleteContentErr(err: Error): void {
    this.deleteContentErrors.push(err);
  }

  /** Writes the conditions into `ns.status`; true when anything changed. */
  update(ns: Namespace): boolean {
    if (!this.newConditions.some((c) => c.type === t.DeletionContentFailure) && this.deleteContentErrors.length > 0) {
      const msgs = this.deleteContentErrors.map((e) => e.message).sort();
      this.newConditions.push(
        failure(
          t.DeletionContentFailure,
          "ContentDeletionFailed",
          `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(", ")}`,
        ),
      );
    }
    ns.status ??= {};
    return updateConditions(ns.status, this.newConditions);
  }
}

/** upstream updateConditions: every maintained type present; lastTransitionTime moves only with status. */
function updateConditions(status: NonNullable<Namespace["status"]>, newConditions: readonly NamespaceCondition[]): boolean {
  let changed = false;
  const conditions = (status.conditions ??= []);
  for (const type of conditionTypes) {
    const next = newConditions.find((c) => c.type === type) ?? {
      type,
      status: "False",
      lastTransitionTime: now(),
      reason: okReasons[type],
      message: okMessages[type],
    };
    const old = conditions.find((c) => c.type === type);
    if (old === undefined) {
      conditions.push(next);
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now();
      Object.assign(old, { type: next.type, status: next.status, reason: next.reason, message: next.message });
      changed = true;
    }
  }
  return changed;
}
