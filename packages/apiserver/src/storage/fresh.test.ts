/**
 * A read "not older than" a resourceVersion the store has not reached yet waits for it, as
 * upstream's watch cache does (waitUntilFreshAndBlock, 3 s), before answering 504.
 */
import { StatusError } from "@servicenet/api/errors";
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { Store } from "./interfaces.ts";
import { testObject } from "./testing.ts";

vi.setConfig({ testTimeout: 30_000 });

const dir = "/registry/configmaps/";
const key = (name: string): string => `${dir}default/${name}`;

describeEachBackend(
  "reads at a future resourceVersion",
  (ctx) => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store;
    });

    it("a NotOlderThan list waits for the revision and then answers at or after it", async () => {
      await store.create(key("a"), testObject("a"));
      const next = (await store.currentRevision()) + 1;
      const list = store.list(dir, { resourceVersion: String(next), resourceVersionMatch: "NotOlderThan" });
      // The write lands while the list waits.
      await new Promise((r) => setImmediate(r));
      await store.create(key("b"), testObject("b"));
      const got = await list;
      expect(Number(got.resourceVersion)).toBeGreaterThanOrEqual(next);
      expect(got.items.map((o) => o.metadata.name)).toEqual(["a", "b"]);
    });

    it("a get with a future resourceVersion waits for it too", async () => {
      await store.create(key("a"), testObject("a"));
      const next = (await store.currentRevision()) + 1;
      const get = store.get(key("a"), { resourceVersion: String(next) });
      await new Promise((r) => setImmediate(r));
      await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "2" } }));
      expect((await get)["data"]).toEqual({ v: "2" });
    });

    it("a revision that never comes is the 504 with Retry-After 1 once the wait is over", async () => {
      await store.create(key("a"), testObject("a"));
      const far = (await store.currentRevision()) + 1_000_000;
      const e = await store.list(dir, { resourceVersion: String(far), resourceVersionMatch: "NotOlderThan" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(StatusError);
      const s = (e as StatusError).status;
      expect([s.code, s.reason, s.details?.retryAfterSeconds]).toEqual([504, "Timeout", 1]);
      expect(s.message).toMatch(new RegExp(`^Too large resource version: ${far}, current: \\d+$`));
    });
  },
  { seed: true },
);
