/**
 * The per-backend frame every storage contract suite shares: one describe per backend (memory,
 * sqlite, etcd when configured), a fresh isolated store before each test, cleanup after, the
 * shared-history lock for suites that read global revisions on a shared etcd, and an optional
 * seed write so that revision 0 ("any") never stands in for a real start revision. Test-only
 * (imports vitest; excluded from the build).
 */
import { afterEach, beforeEach, describe } from "vitest";
import type { BackendName, Store, StoreConfig } from "./interfaces.ts";
import { availableBackends, lockSharedHistory, openTestStore, testObject, type TestStore } from "./testing.ts";

export interface BackendSuiteOptions {
  /** Take lockSharedHistory (suites that compare revisions across the whole etcd). */
  sharedHistory?: boolean;
  /** Write /registry/unrelated/seed first. */
  seed?: boolean;
  extra?: Partial<StoreConfig>;
}

/** The current test's store; valid inside tests and hooks of the suite body. */
export interface BackendContext {
  readonly backend: BackendName;
  readonly t: TestStore;
  readonly store: Store;
}

/** `describe("<title> on <backend>")` for every backend, with the store set up around each test. */
export function describeEachBackend(title: string, body: (ctx: BackendContext) => void, opts: BackendSuiteOptions = {}): void {
  describe.each(availableBackends())(`${title} on $backend`, ({ backend, available }) => {
    let current: TestStore | undefined;
    let unlock: () => Promise<void> = async () => {};
    const ctx: BackendContext = {
      backend,
      get t() {
        if (!current) throw new Error("no test store outside a test");
        return current;
      },
      get store() {
        return ctx.t.store;
      },
    };
    beforeEach(async () => {
      if (!available) return;
      if (opts.sharedHistory) unlock = await lockSharedHistory(backend);
      current = await openTestStore(backend, opts.extra);
      if (opts.seed) await current.store.create("/registry/unrelated/seed", testObject("seed"));
    });
    afterEach(async () => {
      if (current) await current.cleanup();
      current = undefined;
      await unlock();
      unlock = async () => {};
    });
    describe.skipIf(!available)("", () => body(ctx));
  });
}
