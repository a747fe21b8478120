/** The persisted NodePort allocator on every backend: upstream portallocator cases over storage. */
import { describe, expect, it } from "vitest";
import type { Store } from "../../../../storage/index.ts";
import { seededRandom } from "../allocator/random.ts";
import { serviceNodePortsKey } from "../allocator/storage/keys.ts";
import { rangeBackends, withStore } from "../allocator/storage/testing.ts";
import { PortAllocator } from "./allocator.ts";
import { ErrPortAllocated, ErrPortNotInRange, ErrPortRangeFull } from "./interfaces.ts";
import { parsePortRange } from "./port-range.ts";
import { StoredPortAllocator } from "./stored-port-allocator.ts";

function ports(store: Store, range: string, seed = 1): StoredPortAllocator {
  return new StoredPortAllocator({ portRange: parsePortRange(range), store, random: seededRandom(seed) });
}

describe.each(rangeBackends())("StoredPortAllocator on %s", (backend) => {
  it("refuses to allocate before the RangeAllocation exists", () =>
    withStore(backend, async ({ store }) => {
      await expect(ports(store, "30000-32767").allocateNext()).rejects.toThrow(
        "cannot allocate resources of type servicenodeportallocations at this time",
      );
    }));

  it.each([
    { name: "first port", port: 30000, err: null },
    { name: "last port", port: 32767, err: null },
    { name: "below", port: 29999, err: ErrPortNotInRange },
    { name: "above", port: 32768, err: ErrPortNotInRange },
  ])("allocate: $name", ({ port, err }) =>
    withStore(backend, async ({ store }) => {
      const p = ports(store, "30000-32767");
      await p.ensureInitialized();
      const done = p.allocate(port);
      if (err) return expect(done).rejects.toBeInstanceOf(err);
      await done;
      await expect(ports(store, "30000-32767", 2).allocate(port)).rejects.toBeInstanceOf(ErrPortAllocated);
    }),
  );

  it("two allocators share the range until it is full; the stored object is a RangeAllocation", () =>
    withStore(backend, async ({ store }) => {
      const a = ports(store, "30000-30009", 1);
      const b = ports(store, "30000-30009", 2);
      expect(await a.ensureInitialized()).toBe(true);
      expect(await b.ensureInitialized()).toBe(false);
      const got = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).allocateNext()));
      expect(new Set(got).size).toBe(10);
      await expect(a.allocateNext()).rejects.toBeInstanceOf(ErrPortRangeFull);
      await a.release(got[3]!);
      expect(await b.allocateNext()).toBe(got[3]);
      const obj = await store.get(serviceNodePortsKey);
      expect(obj).toMatchObject({ kind: "RangeAllocation", range: "30000-30009" });
      expect(PortAllocator.fromSnapshot({ range: obj["range"] as string, data: obj["data"] as string }).used()).toBe(10);
    }));
});
