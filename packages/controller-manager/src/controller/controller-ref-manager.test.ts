// PodControllerRefManager.ClaimPods (upstream's controller_ref_manager_test.go TestClaimPods cases) and the patches it sends.
import { describe, expect, it } from "vitest";
import { labelSelectorAsSelector, type Pod } from "@servicenet/api";
import { StatusError } from "@servicenet/api/errors";
import { FakePodControl } from "../testing/fake-pod-control.ts";
import {
  deleteOwnerRefPatch,
  ownerRefControllerPatch,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from "./controller-ref-manager.ts";
import type { ControllerObject } from "./pod-control.ts";

const rs: ControllerObject = { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: { name: "foo", namespace: "default", uid: "rs-uid" } };
const selector = labelSelectorAsSelector({ matchLabels: { foo: "bar" } });
const ownRef = { apiVersion: "apps/v1", kind: "ReplicaSet", name: "foo", uid: "rs-uid", controller: true, blockOwnerDeletion: true };

const pod = (name: string, labels: Record<string, string>, o: Partial<Pod["metadata"]> = {}): Pod => ({
  metadata: { name, namespace: "default", uid: `uid-${name}`, labels, ...o },
  spec: { containers: [] },
});

describe("PodControllerRefManager.claimPods", () => {
  it("TestClaimPods: claims owned matches, adopts matching orphans, releases owned non-matches, ignores others", async () => {
    const pc = new FakePodControl();
    const cm = new PodControllerRefManager(pc, rs, selector);
    const owned = pod("owned", { foo: "bar" }, { ownerReferences: [ownRef] });
    const orphan = pod("orphan", { foo: "bar" });
    const stale = pod("stale", { foo: "other" }, { ownerReferences: [ownRef] });
    const foreign = pod("foreign", { foo: "bar" }, { ownerReferences: [{ ...ownRef, uid: "other" }] });
    const deleting = pod("deleting", { foo: "bar" }, { deletionTimestamp: "2026-01-01T00:00:00Z" });
    const otherNs = pod("other-ns", { foo: "bar" }, { namespace: "kube-system" });
    const claimed = await cm.claimPods([owned, orphan, stale, foreign, deleting, otherNs]);
    expect(claimed.map((p) => p.metadata.name)).toEqual(["owned", "orphan"]);
    expect(pc.patches).toEqual([
      { metadata: { ownerReferences: [ownRef], uid: "uid-orphan" } },
      { metadata: { uid: "uid-stale", ownerReferences: [{ $patch: "delete", uid: "rs-uid" }] } },
    ]);
  });

  it("neither adopts nor releases while the controller is being deleted", async () => {
    const pc = new FakePodControl();
    const cm = new PodControllerRefManager(
      pc,
      { ...rs, metadata: { ...rs.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } },
      selector,
    );
    const claimed = await cm.claimPods([pod("orphan", { foo: "bar" }), pod("stale", { foo: "x" }, { ownerReferences: [ownRef] })]);
    expect(claimed).toEqual([]);
    expect(pc.patches).toEqual([]);
  });

  it("runs the adoption check once; a failing check fails each adoption with upstream's message", async () => {
    let checks = 0;
    const check = recheckDeletionTimestamp(async () => {
      checks++;
      throw new StatusError("NotFound", 'replicasets.apps "foo" not found');
    });
    const cm = new PodControllerRefManager(new FakePodControl(), rs, selector, check);
    await expect(cm.claimPods([pod("a", { foo: "bar" }), pod("b", { foo: "bar" })])).rejects.toThrow(
      `[can't adopt Pod default/a (uid-a): can't recheck DeletionTimestamp: replicasets.apps "foo" not found, can't adopt Pod default/b (uid-b): can't recheck DeletionTimestamp: replicasets.apps "foo" not found]`,
    );
    expect(checks).toBe(1);
  });

  it("a release refused as NotFound or Invalid (the Pod is gone or was recreated) is no error", async () => {
    for (const err of [new StatusError("NotFound", "gone"), new StatusError("Invalid", "uid: Invalid value")]) {
      const pc = new FakePodControl();
      pc.err = err;
      const cm = new PodControllerRefManager(pc, rs, selector);
      await expect(cm.claimPods([pod("stale", { foo: "x" }, { ownerReferences: [ownRef] })])).resolves.toEqual([]);
    }
  });

  it("builds upstream's patches", () => {
    expect(ownerRefControllerPatch(rs, "p")).toEqual({ metadata: { ownerReferences: [ownRef], uid: "p" } });
    expect(deleteOwnerRefPatch("p", ["a", "b"])).toEqual({
      metadata: {
        uid: "p",
        ownerReferences: [
          { $patch: "delete", uid: "a" },
          { $patch: "delete", uid: "b" },
        ],
      },
    });
  });
});
