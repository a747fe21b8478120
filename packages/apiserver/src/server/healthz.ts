/**
 * `/healthz`, `/livez` and `/readyz` with one sub-path per check, as upstream's
 * `staging/src/k8s.io/apiserver/pkg/server/healthz/healthz.go` (`InstallPathHandler`,
 * `handleRootHealth`, `adaptCheckToHandler`): `?verbose` lists each check, `?exclude=<name>` skips
 * one, a failed root answers 500 with every check and the reason withheld, a failed check's own
 * path answers 500 with its error.
 */
import type { Store } from "../storage/index.ts";

/** A named health check (upstream `healthz.HealthChecker`); it throws (or rejects) when unhealthy. */
export interface HealthChecker {
  readonly name: string;
  check(): void | Promise<void>;
}

/** A check from a name and a function (upstream `healthz.NamedCheck`). */
export function namedCheck(name: string, check: () => void | Promise<void>): HealthChecker {
  return { name, check };
}

/** Always healthy (upstream `PingHealthz`). */
export const pingHealthz: HealthChecker = namedCheck("ping", () => {});

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

export interface HealthAnswer {
  code: number;
  body: string;
}

async function failure(c: HealthChecker): Promise<string | undefined> {
  try {
    await c.check();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** upstream `handleRootHealth`: `root` is "healthz", "livez" or "readyz". */
export async function rootHealth(root: string, checks: readonly HealthChecker[], query: URLSearchParams): Promise<HealthAnswer> {
  const excluded = new Set(query.getAll("exclude"));
  let out = "";
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      out += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    if ((await failure(c)) !== undefined) {
      // As upstream: the endpoint is public, so the reason is withheld.
      out += `[-]${c.name} failed: reason withheld\n`;
      failed = true;
    } else out += `[+]${c.name} ok\n`;
  }
  if (excluded.size > 0)
    out += `warn: some health checks cannot be excluded: no matches for ${[...excluded]
      .sort()
      .map((n) => JSON.stringify(n))
      .join(",")}\n`;
  // http.Error appends a newline; the verbose success output ends with one too.
  if (failed) return { code: 500, body: `${out}${root} check failed\n` };
  if (!query.has("verbose")) return { code: 200, body: "ok" };
  return { code: 200, body: `${out}${root} check passed\n` };
}

/** upstream `adaptCheckToHandler`: one check's own path. */
export async function singleHealth(c: HealthChecker): Promise<HealthAnswer> {
  const err = await failure(c);
  return err === undefined ? { code: 200, body: "ok" } : { code: 500, body: `internal server error: ${err}\n` };
}

/** The checks of each root path; sub-paths are `<root>/<check name>`. */
export type HealthChecks = Readonly<Record<"healthz" | "livez" | "readyz", readonly HealthChecker[]>>;

/**
 * Answers a health path: the root (`/readyz`), a check (`/readyz/etcd`, `/livez/poststarthook/x`),
 * or undefined when `path` is neither (the caller's 404).
 */
export async function serveHealth(checks: HealthChecks, path: string, query: URLSearchParams): Promise<HealthAnswer | undefined> {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
  if (!m) return undefined;
  const root = m[1] as keyof HealthChecks;
  if (m[2] === undefined) return rootHealth(root, checks[root], query);
  const c = checks[root].find((x) => x.name === m[2]);
  return c ? singleHealth(c) : undefined;
}

/**
 * kube-apiserver's checks (`genericapiserver` `AddHealthChecks`, `AddReadyzChecks`, the
 * `shutdown` and `informer-sync` readyz checks): ping, log, the datastore as `etcd`, the post-start
 * hooks; /readyz adds `etcd-readiness`, `informer-sync` and `shutdown` (failing once `shutdown` aborted).
 */
export function apiserverHealthChecks(store: Store, hooks: readonly HealthChecker[], shutdown: AbortSignal): HealthChecks {
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

/** Whether `path` is a health root or sub-path (for routing and authentication). */
export function isHealthPath(path: string): boolean {
  return /^\/(healthz|livez|readyz)(\/|$)/.test(path);
}
