/**
 * Health checks served on `/healthz`, `/livez` and `/readyz` with one sub-path per check, as
 * upstream's `staging/src/k8s.io/apiserver/pkg/server/healthz/healthz.go` (`InstallPathHandler`,
 * `handleRootHealth`, `adaptCheckToHandler`): `?verbose` lists each check, `?exclude=<name>` skips
 * one, a failed root answers 500 with every check and the reason withheld, a failed check's own
 * path answers 500 with its error. Shared by every component that serves health (kube-apiserver,
 * kube-controller-manager).
 */

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

/** upstream `handleRootHealth`: `root` is the path's name ("healthz", "livez", "readyz"). */
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

/** The checks of each root path a component serves; sub-paths are `<root>/<check name>`. */
export type HealthChecks = Readonly<Partial<Record<"healthz" | "livez" | "readyz", readonly HealthChecker[]>>>;

/**
 * Answers a health path: the root (`/readyz`), a check (`/readyz/etcd`, `/livez/poststarthook/x`),
 * or undefined when `path` is neither or its root is not served (the caller's 404). A root without
 * checks serves `ping` alone, as upstream's `InstallPathHandlerWithHealthyFunc`.
 */
export async function serveHealth(checks: HealthChecks, path: string, query: URLSearchParams): Promise<HealthAnswer | undefined> {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
  if (!m) return undefined;
  const root = m[1] as keyof HealthChecks;
  const served = checks[root];
  if (served === undefined) return undefined;
  const list = served.length === 0 ? [pingHealthz] : served;
  if (m[2] === undefined) return rootHealth(root, list, query);
  const c = list.find((x) => x.name === m[2]);
  return c ? singleHealth(c) : undefined;
}

/** Whether `path` is a health root or sub-path (for routing and authentication). */
export function isHealthPath(path: string): boolean {
  return /^\/(healthz|livez|readyz)(\/|$)/.test(path);
}
