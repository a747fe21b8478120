/**
 * Unauthenticated and wrong-credential requests against every endpoint and verb, refused before
 * anything is read, decoded or written: a wrong credential is a 401 Status everywhere (upstream
 * never lets a bad token fall back to anonymous); no credential is system:anonymous, whom RBAC
 * refuses with a 403 Status — except GET on the paths upstream's system:public-info-viewer opens to
 * everyone (/healthz, /livez, /readyz, /version), which answer 200.
 */
import { statusProblem, parseStatus } from "./check.ts";
import type { ChildApiServer } from "./child-apiserver.ts";
import { gvPath, type Discovered } from "./discovery-walk.ts";
import { rawClient } from "./raw-client.ts";
import { fuzzNamespace, seedFor } from "./seeds.ts";

/** Paths answered without credentials. */
export const publicPaths: readonly string[] = ["/healthz", "/livez", "/readyz", "/version"];

export interface AuthReport {
  requests: number;
  /** Public path answers: `path auth → status`. */
  publicAnswers: Map<string, number>;
  violations: string[];
}

/**
 * `Authorization` header values that must not authenticate (null: no header at all). Not here:
 * `Bearer <token> extra`, which upstream's authenticator takes as `<token>` (it splits on spaces).
 */
export function badCredentials(token: string): (string | null)[] {
  return [
    null,
    "Bearer wrong-token",
    "Bearer ",
    "Bearer",
    `Bearer ${token}x`,
    `Bearer ${token.slice(0, -1)}`,
    `Basic ${Buffer.from(`admin:${token}`).toString("base64")}`,
    `Bearer  ${token}`,
    token,
    `Bearer\t${"x".repeat(8000)}`,
  ];
}

/**
 * Whether a header is no credential (anonymous) rather than a wrong one, as upstream's
 * `bearertoken.go` tells them apart: no header, another scheme, or an empty token.
 */
export function isAnonymous(auth: string | null): boolean {
  const parts = (auth ?? "").trim().split(" ");
  return parts.length < 2 || parts[0]!.toLowerCase() !== "bearer" || parts[1] === "";
}

/** Every path the auth sweep visits: collections, items, subresources and non-resource paths. */
export function authPaths(d: Discovered): string[] {
  const out = new Set<string>(d.nonResource);
  for (const ep of d.resources) {
    const gv = gvPath(ep.group, ep.version);
    const collection = ep.namespaced ? `${gv}/namespaces/${fuzzNamespace}/${ep.resource}` : `${gv}/${ep.resource}`;
    const name = seedFor(ep.group, ep.resource)?.name ?? "x";
    if (ep.subresource === "") {
      out.add(collection);
      if (ep.namespaced) out.add(`${gv}/${ep.resource}`);
      out.add(`${collection}?watch=true&timeoutSeconds=1`);
    }
    out.add(`${collection}/${name}${ep.subresource ? `/${ep.subresource}` : ""}`);
  }
  out.add("/nope");
  return [...out];
}

/** Runs the sweep: `paths x methods x credentials` (the first `credentials` of them), one request each. */
export async function runAuthChecks(
  server: ChildApiServer,
  d: Discovered,
  o: { methods?: readonly string[]; credentials?: number } = {},
): Promise<AuthReport> {
  const methods = o.methods ?? ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const client = rawClient(server.url, server.ca, server.token, { maxSockets: 4, timeoutMs: 10_000, streamWaitMs: 2000 });
  const report: AuthReport = { requests: 0, publicAnswers: new Map(), violations: [] };
  const creds = badCredentials(server.token).slice(0, o.credentials);
  const jobs: (() => Promise<void>)[] = [];
  for (const path of authPaths(d)) {
    for (const method of methods) {
      for (const [i, auth] of creds.entries()) {
        jobs.push(async () => {
          // A body that would be a valid write if authentication let it through.
          const body = method === "GET" ? undefined : method === "DELETE" ? "" : '{"metadata":{"name":"auth-probe"}}';
          const headers: Record<string, string> = {
            "Content-Type": method === "PATCH" ? "application/merge-patch+json" : "application/json",
          };
          const r = await client.send({
            method,
            path,
            auth,
            headers,
            ...(body !== undefined ? { body } : {}),
            stream: path.includes("watch=true"),
          });
          report.requests++;
          const bare = path.split("?")[0]!;
          if (publicPaths.includes(bare)) {
            report.publicAnswers.set(`${method} ${bare} cred#${i}`, r.status);
            const want = !isAnonymous(auth) ? 401 : method === "GET" ? 200 : 403;
            if (r.status !== want)
              report.violations.push(`${method} ${path} cred#${i}: public path answered ${r.status} instead of ${want}`);
            return;
          }
          const want = isAnonymous(auth) ? 403 : 401;
          if (r.status !== want)
            report.violations.push(`${method} ${path} cred#${i}: ${r.status} instead of ${want}: ${r.body.toString().slice(0, 160)}`);
          else {
            const p = statusProblem(parseStatus(r), want);
            if (p) report.violations.push(`${method} ${path} cred#${i}: ${p}`);
          }
        });
      }
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      try {
        await job();
      } catch (e) {
        report.violations.push(`request failed: ${String(e)}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: 4 }, worker));
  } finally {
    client.close();
  }
  return report;
}
