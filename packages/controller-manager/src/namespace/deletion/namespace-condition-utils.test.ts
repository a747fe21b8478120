/** pkg/controller/namespace/deletion/namespace_condition_utils_test.go: TestUpdateConditions and friends. */
import type { Namespace } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { ErrGroupDiscoveryFailed } from "./discovery.ts";
import { conditionTypes, NamespaceConditionUpdater } from "./namespace-condition-utils.ts";

const summary = (ns: Namespace) => (ns.status?.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`);

describe("NamespaceConditionUpdater", () => {
  it("TestUpdateConditions: all five types, False with the ok reasons when nothing failed; unchanged is no update", () => {
    const ns: Namespace = { metadata: { name: "n" } };
    expect(new NamespaceConditionUpdater().update(ns)).toBe(true);
    expect(summary(ns)).toEqual([
      "NamespaceDeletionDiscoveryFailure=False ResourcesDiscovered: All resources successfully discovered",
      "NamespaceDeletionGroupVersionParsingFailure=False ParsedGroupVersions: All legacy kube types successfully parsed",
      "NamespaceDeletionContentFailure=False ContentDeleted: All content successfully deleted, may be waiting on finalization",
      "NamespaceContentRemaining=False ContentRemoved: All content successfully removed",
      "NamespaceFinalizersRemaining=False ContentHasNoFinalizers: All content-preserving finalizers finished",
    ]);
    expect(conditionTypes).toHaveLength(5);
    expect(new NamespaceConditionUpdater().update(ns)).toBe(false);
  });

  it("failures: discovery, group versions, content errors (sorted, counted), remaining content and finalizers (sorted)", () => {
    const u = new NamespaceConditionUpdater();
    u.processDiscoverResourcesErr(new ErrGroupDiscoveryFailed(new Map([["metrics.k8s.io/v1beta1", new Error("down")]])));
    u.processGroupVersionErr(new Error("unexpected GroupVersion string: a/b/c"));
    u.processDeleteContentErr(new Error("b failed"));
    u.processDeleteContentErr(new Error("a failed"));
    u.processContentTotals({
      gvrToNumRemaining: new Map([
        [{ group: "", version: "v1", resource: "services" }, 2],
        [{ group: "discovery.k8s.io", version: "v1", resource: "endpointslices" }, 1],
      ]),
      finalizersToNumRemaining: new Map([
        ["z.example.com/f", 1],
        ["a.example.com/f", 2],
      ]),
    });
    const ns: Namespace = { metadata: { name: "n" } };
    u.update(ns);
    expect(summary(ns)).toEqual([
      "NamespaceDeletionDiscoveryFailure=True DiscoveryFailed: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: down",
      "NamespaceDeletionGroupVersionParsingFailure=True GroupVersionParsingFailed: unexpected GroupVersion string: a/b/c",
      "NamespaceDeletionContentFailure=True ContentDeletionFailed: Failed to delete all resource types, 2 remaining: a failed, b failed",
      "NamespaceContentRemaining=True SomeResourcesRemain: Some resources are remaining: endpointslices.discovery.k8s.io has 1 resource instances, services. has 2 resource instances",
      "NamespaceFinalizersRemaining=True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: a.example.com/f in 2 resource instances, z.example.com/f in 1 resource instances",
    ]);
  });

  it("lastTransitionTime moves only when the status flips", () => {
    const ns: Namespace = {
      metadata: { name: "n" },
      status: {
        conditions: [
          {
            type: "NamespaceContentRemaining",
            status: "True",
            reason: "SomeResourcesRemain",
            message: "old",
            lastTransitionTime: "2020-01-01T00:00:00Z",
          },
        ],
      },
    };
    const u = new NamespaceConditionUpdater();
    u.processContentTotals({
      gvrToNumRemaining: new Map([[{ group: "", version: "v1", resource: "pods" }, 1]]),
      finalizersToNumRemaining: new Map(),
    });
    u.update(ns);
    const c = ns.status?.conditions?.find((x) => x.type === "NamespaceContentRemaining");
    expect(c?.message).toBe("Some resources are remaining: pods. has 1 resource instances");
    expect(c?.lastTransitionTime).toBe("2020-01-01T00:00:00Z");
    new NamespaceConditionUpdater().update(ns);
    expect(ns.status?.conditions?.find((x) => x.type === "NamespaceContentRemaining")?.lastTransitionTime).not.toBe("2020-01-01T00:00:00Z");
  });
});
