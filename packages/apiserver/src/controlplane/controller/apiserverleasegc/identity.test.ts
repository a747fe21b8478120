import { describe, expect, it } from "vitest";
import { GenericStore } from "../../../registry/generic/store.ts";
import { leaseStrategy } from "../../../registry/coordination/lease/strategy.ts";
import { createStore } from "../../../storage/index.ts";
import { apiserverID, collectExpiredIdentityLeases, renewIdentityLease } from "./identity.ts";

describe("APIServerIdentity leases", () => {
  it("names the lease as genericapiserver's APIServerID (sha256 of the cryptobyte-framed hostname and component, base32)", () => {
    // Computed independently: base32(sha256(\x00\x06myhost\x00\x0ekube-apiserver)[:16]), lower case.
    expect(apiserverID("myhost")).toBe("apiserver-eqwsatu4lrpqig5wtp5dvzxufm");
  });

  it("creates and renews the kube-system Lease, and the GC deletes it only once renewTime + 1 h passed", async () => {
    const store = await createStore({ backend: "memory" });
    const leases = new GenericStore(store, {
      group: "coordination.k8s.io",
      resource: "leases",
      storagePath: "leases",
      strategy: leaseStrategy,
    });
    let now = Date.parse("2026-01-01T00:00:00Z");
    const o = { leases, hostname: "myhost", now: () => now, holderIdentity: "apiserver-eqwsatu4lrpqig5wtp5dvzxufm_u1" };
    await renewIdentityLease(o);
    now += 10_000;
    await renewIdentityLease(o);
    const lease = await leases.get("kube-system", "apiserver-eqwsatu4lrpqig5wtp5dvzxufm");
    expect(lease.metadata["labels"]).toEqual({ "apiserver.kubernetes.io/identity": "kube-apiserver", "kubernetes.io/hostname": "myhost" });
    expect(lease["spec"]).toEqual({
      holderIdentity: "apiserver-eqwsatu4lrpqig5wtp5dvzxufm_u1",
      leaseDurationSeconds: 3600,
      renewTime: "2026-01-01T00:00:10.000000Z",
    });
    // An unrelated Lease (leader election) is never collected.
    await leases.create("kube-system", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "kube-controller-manager", namespace: "kube-system" },
      spec: { renewTime: "2020-01-01T00:00:00.000000Z", leaseDurationSeconds: 15 },
    });
    now += 3600_000 - 10_000;
    expect(await collectExpiredIdentityLeases(o)).toEqual([]);
    now += 20_000;
    expect(await collectExpiredIdentityLeases(o)).toEqual(["apiserver-eqwsatu4lrpqig5wtp5dvzxufm"]);
    expect((await leases.list("kube-system")).items.map((l) => l.metadata.name)).toEqual(["kube-controller-manager"]);
    await store.close();
  });
});
