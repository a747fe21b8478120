/**
 * admission.Handler's WaitForReady (staging/src/k8s.io/apiserver/pkg/admission/handler.go) for a
 * plugin reading an informer cache: the cache starts on first use, and a request waits for its
 * first list up to a timeout, else it is Forbidden.
 */
import type { Attributes } from "./attributes.ts";
import { newForbidden } from "./errors.ts";

/** A plugin's informer cache as WaitForReady sees it. */
export interface ReadyCache {
  hasSynced(): boolean;
  start?(): void;
  waitForSync?(): Promise<void>;
}

/** handler.go's timeToWaitForReady. */
const defaultReadyTimeoutMs = 10_000;

/** One plugin's readiness: the cache it starts once and waits for. */
export class ReadyWaiter {
  #started = false;
  readonly #cache: ReadyCache;
  readonly #timeoutMs: number;

  constructor(cache: ReadyCache, timeoutMs = defaultReadyTimeoutMs) {
    this.#cache = cache;
    this.#timeoutMs = timeoutMs;
  }

  /** Starts the cache on first use; throws Forbidden if it has not synced within the timeout. */
  async waitForReady(a: Attributes): Promise<void> {
    const cache = this.#cache;
    if (!this.#started) {
      this.#started = true;
      cache.start?.();
    }
    if (cache.hasSynced() || !cache.waitForSync) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#timeoutMs)));
    await Promise.race([cache.waitForSync(), timeout]);
    clearTimeout(timer);
    if (!cache.hasSynced()) throw newForbidden(a, "not yet ready to handle request");
  }
}
