/**
 * NodePort creates racing for the last ports of a persisted range. The stored allocator sends the
 * operations that queue up during a write as one compare-and-swap, so concurrent creates move in
 * lockstep: every create's first port goes out in one write, every second port in the next. Unless
 * a create takes all its ports in one operation, near the end of the range each create ends up
 * holding one port, fails on its second and rolls back: none of them succeeds although the free
 * ports would serve half of them (and clients retrying together fail together again).
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../../../storage/index.ts";
import { seededRandom } from "../allocator/random.ts";
import { rangeBackends, withStore } from "../allocator/storage/testing.ts";
import { parsePortRange } from "../portallocator/port-range.ts";
import { StoredPortAllocator } from "../portallocator/stored-port-allocator.ts";
import { txnAllocNodePorts, txnUpdateNodePorts } from "./alloc-node-ports.ts";
import { makeService, setTypeNodePort, type Tweak } from "./testing.ts";

/** A persisted 100-port range with 90 ports taken. */
async function nearlyFull(store: Store): Promise<StoredPortAllocator> {
  const pa = new StoredPortAllocator({ portRange: parsePortRange("30000-30099"), store, random: seededRandom(1) });
  await pa.ensureInitialized();
  for (let i = 0; i < 90; i++) await pa.allocateNext();
  return pa;
}

const twoPorts: Tweak = (s) => {
  s.spec.ports = [
    { name: "http", protocol: "TCP", port: 80, targetPort: 8080 },
    { name: "https", protocol: "TCP", port: 443, targetPort: 8443 },
  ];
};

describe.each(rangeBackends())("NodePort creates racing for the last ports on %s", (backend) => {
  it("16 concurrent two-port creates over 10 free ports: 5 succeed, the others take nothing", () =>
    withStore(backend, async ({ store }) => {
      const pa = await nearlyFull(store);
      const results = await Promise.allSettled(
        Array.from({ length: 16 }, async (_, i) => {
          const svc = makeService(`np-${i}`, setTypeNodePort, twoPorts);
          const txn = await txnAllocNodePorts(pa, svc, false);
          await txn.commit();
          return (svc.spec.ports ?? []).map((p) => p.nodePort);
        }),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r.reason as Error).message);
      expect(ok.length).toBe(5);
      expect(new Set(refused)).toEqual(new Set(["Internal error occurred: failed to allocate a nodePort: range is full"]));
      expect(pa.used()).toBe(100);
      // Storage agrees with memory: a fresh allocator on the same store finds the range full.
      const other = new StoredPortAllocator({ portRange: parsePortRange("30000-30099"), store, random: seededRandom(2) });
      await expect(other.allocateNext()).rejects.toThrow("range is full");
    }));

  it("16 concurrent ClusterIP-to-NodePort updates of two-port Services over 10 free ports: 5 succeed", () =>
    withStore(backend, async ({ store }) => {
      const pa = await nearlyFull(store);
      const results = await Promise.allSettled(
        Array.from({ length: 16 }, async (_, i) => {
          const old = makeService(`np-${i}`, twoPorts);
          const svc = makeService(`np-${i}`, setTypeNodePort, twoPorts);
          const txn = await txnUpdateNodePorts(pa, svc, old, false);
          await txn.commit();
        }),
      );
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(5);
      expect(pa.used()).toBe(100);
    }));
});
