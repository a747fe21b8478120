// FilterPodsByOwner over the PodControllerUIDIndex (upstream's controller_utils_test.go TestFilterPodsByOwner).
import { describe, expect, it } from "vitest";
import type { Pod } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { filterPodsByOwner, podControllerUIDIndex, podControllerUIDIndexFunc } from "./pod-index.ts";

const pod = (namespace: string, name: string, controllerUID?: string, otherOwnerUID?: string): Pod => ({
  metadata: {
    namespace,
    name,
    ownerReferences: [
      ...(controllerUID ? [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: controllerUID, controller: true }] : []),
      ...(otherOwnerUID ? [{ apiVersion: "v1", kind: "Service", name: "s", uid: otherOwnerUID }] : []),
    ],
  },
  spec: { containers: [] },
});

describe("filterPodsByOwner", () => {
  const pods = new MemoryInformer<Pod>(
    [
      pod("ns", "owned", "rs-uid"),
      pod("ns", "owned-other-ref", "rs-uid", "svc-uid"),
      pod("ns", "orphan"),
      pod("ns", "orphan-with-plain-owner", undefined, "rs-uid"),
      pod("ns", "foreign", "other-uid"),
      pod("other", "orphan-elsewhere"),
    ],
    true,
    { [podControllerUIDIndex]: podControllerUIDIndexFunc },
  );
  const names = (ps: Pod[]) => ps.map((p) => p.metadata.name).sort();

  it("finds the owner's Pods, and with orphans those of its namespace only", () => {
    expect(names(filterPodsByOwner(pods, { namespace: "ns", uid: "rs-uid" }, false))).toEqual(["owned", "owned-other-ref"]);
    expect(names(filterPodsByOwner(pods, { namespace: "ns", uid: "rs-uid" }, true))).toEqual([
      "orphan",
      "orphan-with-plain-owner",
      "owned",
      "owned-other-ref",
    ]);
  });

  it("refuses an owner without namespace or uid", () => {
    expect(() => filterPodsByOwner(pods, { uid: "rs-uid" }, true)).toThrow("no owner namespace provided");
    expect(() => filterPodsByOwner(pods, { namespace: "ns" }, true)).toThrow("no owner uid provided");
  });
});
