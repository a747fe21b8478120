/**
 * `/healthz`, `/livez` and `/readyz` with one sub-path per check, as upstream's
 * `staging/src/k8s.io/apiserver/pkg/server/healthz/healthz.go`; the handlers are component-base's
 * (shared with the controller-manager), the apiserver's own checks are here.
 */
import { namedCheck, pingHealthz, type HealthChecker, type HealthChecks } from "@servicenet/component-base/healthz";
import type { Store } from "../storage/index.ts";

export { namedCheck, pingHealthz, rootHealth, singleHealth, serveHealth, isHealthPath } from "@servicenet/component-base/healthz";
export type { HealthChecker, HealthAnswer, HealthChecks } from "@servicenet/component-base/healthz";

/**
 * Upstream's `LogHealthz` fails when klog's flush is blocked for 2 min; log lines here are written
 * synchronously by the caller's function, so there is nothing that can block behind it.
 */
export const logHealthz: HealthChecker = namedCheck("log", () => {});

/** upstream `storagebackend.DefaultHealthcheckTimeout`. */
const storageHealthTimeoutMs = 2000;

/**
 * The `etcd` check (upstream `storagebackend/factory` `CreateHealthCheck`): one round trip to the
 * datastore within 2 s. Used for `etcd-readiness` too, as upstream's `CreateReadyCheck` is the same probe.
 */
export function storageHealthz(name: string, store: Store): HealthChecker {
  return namedCheck(name, async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("context deadline exceeded")), storageHealthTimeoutMs);
    });
    try {
      await Promise.race([store.currentRevision(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  });
}

/** A post-start hook's check (upstream `postStartHookHealthz`): healthy once the hook finished. */
export function postStartHookHealthz(name: string, done: () => boolean): HealthChecker {
  return namedCheck(`poststarthook/${name}`, () => {
    if (!done()) throw new Error("not finished");
  });
}

/**
 * kube-apiserver's checks (`genericapiserver` `AddHealthChecks`, `AddReadyzChecks`, the
 * `shutdown` and `informer-sync` readyz checks): ping, log, the datastore as `etcd`, the post-start
 * hooks; /readyz adds `etcd-readiness`, `informer-sync` and `shutdown` (failing once `shutdown` aborted).
 */
export function apiserverHealthChecks(store: Store, hooks: readonly HealthChecker[], shutdown: AbortSignal): Required<HealthChecks> {
  const live = [pingHealthz, logHealthz, storageHealthz("etcd", store), ...hooks];
  return {
    healthz: live,
    livez: live,
    readyz: [
      pingHealthz,
      logHealthz,
      storageHealthz("etcd", store),
      storageHealthz("etcd-readiness", store),
      // The server reads storage directly: it has no informers that could be unsynced.
      namedCheck("informer-sync", () => {}),
      ...hooks,
      namedCheck("shutdown", () => {
        if (shutdown.aborted) throw new Error("process is shutting down");
      }),
    ],
  };
}
