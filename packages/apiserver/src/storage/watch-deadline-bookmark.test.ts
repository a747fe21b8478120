/**
 * The bookmark shortly before a watch's deadline (upstream cacheWatcher.nextBookmarkTime): with
 * bookmarks allowed, a watch that will be ended at `deadline` gets one 2 s before it, carrying the
 * newest revision it knows, however long the periodic interval is.
 */
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { Store } from "./interfaces.ts";
import { collect, testObject } from "./testing.ts";

vi.setConfig({ testTimeout: 30_000 });

const dir = "/registry/configmaps/";

describeEachBackend(
  "watch deadline bookmark",
  (ctx) => {
    let store: Store;
    beforeEach(() => {
      store = ctx.store;
    });

    it("sends a BOOKMARK 2 s before the deadline with the newest revision seen", async () => {
      const made = await store.create(`${dir}default/a`, testObject("a"));
      const rv = made.metadata.resourceVersion ?? "";
      const watch = store.watch(dir, {
        recursive: true,
        resourceVersion: rv,
        allowBookmarks: true,
        bookmarkIntervalMs: 3_600_000,
        deadline: Date.now() + 2_200,
      });
      const [ev] = await collect(watch, 1, 20_000);
      expect(ev).toEqual({ type: "BOOKMARK", object: { metadata: { resourceVersion: rv } } });
    });

    it("sends none without allowBookmarks", async () => {
      const made = await store.create(`${dir}default/a`, testObject("a"));
      const ac = new AbortController();
      const watch = store.watch(dir, {
        recursive: true,
        resourceVersion: made.metadata.resourceVersion ?? "",
        deadline: Date.now() + 2_050,
        signal: ac.signal,
      });
      // A write after the pre-timeout point is the first (and only) event.
      setTimeout(() => void store.create(`${dir}default/b`, testObject("b")), 300);
      const [ev] = await collect(watch, 1, 20_000);
      expect(ev?.type).toBe("ADDED");
      ac.abort();
    });
  },
  { seed: true },
);
