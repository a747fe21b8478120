/**
 * What the legacy ClusterIP and NodePort repair loops share (upstream ipallocator/controller and
 * portallocator/controller repair.go): wait.Until with a first-success callback,
 * retry.RetryOnConflict(DefaultBackoff), wait.PollImmediate for the snapshot read, and the
 * three-pass leak hold-off.
 */
import { StatusError } from "@servicenet/api";
import type { ObjectReference, Service } from "@servicenet/api";

/** Upstream `repairLoopInterval`: the default period of both loops. */
export const repairLoopInterval = 3 * 60 * 1000;

/** How many consecutive runs an allocation must be unreferenced before it is freed. */
export const numRepairsBeforeLeakCleanup = 3;

/** Sleeps `ms`, resolving early when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout-based Sleep that an abort cuts short. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** client-go `retry.DefaultBackoff`: 4 steps from 10 ms, factor 5, jitter 0.1. */
const defaultBackoff = { steps: 4, durationMs: 10, factor: 5, jitter: 0.1 };

/** True for a 409 Conflict StatusError (`errors.IsConflict`). */
export function isConflict(err: unknown): boolean {
  return err instanceof StatusError && err.reason === "Conflict";
}

/** `retry.RetryOnConflict(retry.DefaultBackoff, fn)`: retries fn while it fails with a Conflict. */
export async function retryOnConflict(fn: () => Promise<void>, sleep: Sleep = defaultSleep): Promise<void> {
  let delay = defaultBackoff.durationMs;
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || step >= defaultBackoff.steps) throw err;
    }
    await sleep(delay * (1 + Math.random() * defaultBackoff.jitter));
    delay *= defaultBackoff.factor;
  }
}

/**
 * `wait.PollImmediate(interval, timeout, get)`. Deviation: upstream's condition returns the
 * error, which ends the poll at once; the code's stated intent ("if etcd server is not running we
 * should wait for some time and fail only then") is what this does: retry errors until timeout.
 */
export async function pollImmediate<T>(
  intervalMs: number,
  timeoutMs: number,
  get: () => Promise<T>,
  sleep: Sleep = defaultSleep,
): Promise<T> {
  for (let waited = 0; ; waited += intervalMs) {
    try {
      return await get();
    } catch (err) {
      if (waited + intervalMs > timeoutMs) throw err;
    }
    await sleep(intervalMs);
  }
}

/**
 * `RunUntil(onFirstSuccess, stopCh)`: runs `runOnce` now and then `intervalMs` after each run
 * ends, until `signal` aborts; `onFirstSuccess` is called once, after the first run that
 * succeeded. Errors go to `onError` (upstream runtime.HandleError) and never stop the loop.
 */
export async function runUntil(
  runOnce: () => Promise<void>,
  intervalMs: number,
  onFirstSuccess: () => void,
  signal: AbortSignal,
  onError: (err: unknown) => void,
  sleep: Sleep = defaultSleep,
): Promise<void> {
  let succeeded = false;
  while (!signal.aborted) {
    try {
      await runOnce();
      if (!succeeded) {
        succeeded = true;
        onFirstSuccess();
      }
    } catch (err) {
      onError(err);
    }
    if (signal.aborted) break;
    await sleep(intervalMs, signal);
  }
}

/**
 * The leak hold-off of both repairs: `candidates` are allocations no Service referenced on this
 * run. A first sighting starts the counter at numRepairsBeforeLeakCleanup−1; while it is above
 * 0 the value stays allocated (`keep`) and the counter drops; then it is left out (`leaked`).
 */
export function checkLeaked<K>(
  leaks: Map<K, number>,
  candidates: readonly K[],
  keep: (k: K) => void,
  leaked: (k: K) => void,
  flagged: (k: K) => void,
): void {
  for (const k of candidates) {
    let count = leaks.get(k);
    if (count === undefined) {
      flagged(k);
      count = numRepairsBeforeLeakCleanup - 1;
    }
    if (count > 0) {
      leaks.set(k, count - 1);
      keep(k);
    } else {
      leaked(k);
    }
  }
}

/** The core/v1 reference of a listed Service, for events. */
export function serviceReference(svc: Service): ObjectReference {
  const m = svc.metadata ?? {};
  return {
    kind: "Service",
    apiVersion: "v1",
    name: m.name ?? "",
    namespace: m.namespace ?? "",
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

/** `namespace/name` as upstream's error lines print Services (`%s/%s` of Name, Namespace). */
export function serviceKey(svc: Service): string {
  return `${svc.metadata?.name ?? ""}/${svc.metadata?.namespace ?? ""}`;
}
