/**
 * What every fuzz answer must satisfy: no 5xx (except upstream's 504 for a resourceVersion from
 * the future), every error a Kubernetes Status whose `code` is the HTTP code, no write that carries
 * a flaw succeeding, and watch streams that fail doing so with a non-5xx Status.
 */
import type { FuzzCase } from "./cases.ts";
import type { RawResponse } from "./raw-client.ts";

interface StatusBody {
  kind?: unknown;
  apiVersion?: unknown;
  status?: unknown;
  code?: unknown;
  reason?: unknown;
  message?: unknown;
  details?: { causes?: { reason?: string }[] };
}

/** Parses a Status from JSON or (Accept: application/yaml) kube-apiserver's sorted-key YAML. */
export function parseStatus(r: RawResponse): StatusBody | undefined {
  const text = r.body.toString("utf8");
  if (String(r.headers["content-type"] ?? "").startsWith("application/yaml")) {
    const field = (k: string): string | undefined => new RegExp(`^${k}: (.*)$`, "m").exec(text)?.[1]?.replace(/^"|"$/g, "");
    const code = field("code");
    // Cause reasons are indented list members (`    reason: ResourceVersionTooLarge`).
    const causes = [...text.matchAll(/^[ \t]+(?:- )?reason: (.*)$/gm)].map((m) => ({ reason: m[1]! }));
    return {
      kind: field("kind"),
      apiVersion: field("apiVersion"),
      status: field("status"),
      code: code === undefined ? undefined : Number(code),
      reason: field("reason") ?? "",
      message: field("message") ?? "",
      ...(causes.length > 0 ? { details: { causes } } : {}),
    };
  }
  try {
    return JSON.parse(text) as StatusBody;
  } catch {
    return undefined;
  }
}

/** Why `s` is not a failure Status for HTTP `code` (undefined when it is one). */
export function statusProblem(s: StatusBody | undefined, code: number): string | undefined {
  if (s === undefined) return "body is not a Status (not JSON)";
  if (s.kind !== "Status" || s.apiVersion !== "v1") return `body is ${String(s.kind)}/${String(s.apiVersion)}, not v1 Status`;
  if (s.status !== "Failure") return `status is ${String(s.status)}`;
  if (s.code !== code) return `Status code ${String(s.code)} != HTTP ${code}`;
  if (typeof s.message !== "string" || typeof s.reason !== "string" || s.reason === "") return "Status without reason/message";
  return undefined;
}

/** Upstream answers a list from a future resourceVersion with 504 Timeout + ResourceVersionTooLarge. */
function isTooLargeRV(s: StatusBody | undefined): boolean {
  return s?.reason === "Timeout" && (s.details?.causes ?? []).some((c) => c.reason === "ResourceVersionTooLarge");
}

/** An object a write returned: stored (or would be) — a flawed write must never produce one. */
function looksStored(r: RawResponse): boolean {
  try {
    const o = JSON.parse(r.body.toString("utf8")) as {
      kind?: string;
      status?: unknown;
      metadata?: { uid?: string; resourceVersion?: string };
      items?: unknown;
    };
    return (
      o.metadata?.uid !== undefined ||
      o.metadata?.resourceVersion !== undefined ||
      (o.kind === "Status" && o.status === "Success") ||
      Array.isArray(o.items)
    );
  } catch {
    return false;
  }
}

/** The parser's own 400 (node's llhttp: invalid method or request line): no body, no Status. */
function isParserReject(c: FuzzCase, r: RawResponse): boolean {
  return (
    r.status === 400 &&
    r.body.length === 0 &&
    !["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"].includes(c.method)
  );
}

/** The problems with one answer (empty when it is acceptable). */
export function checkAnswer(c: FuzzCase, r: RawResponse): string[] {
  const out: string[] = [];
  if (isParserReject(c, r)) return out;
  const s = r.status >= 400 && c.method !== "HEAD" ? parseStatus(r) : undefined;
  if (r.status >= 500 && !(r.status === 504 && isTooLargeRV(s)))
    out.push(`HTTP ${r.status}: ${typeof s?.message === "string" ? s.message : r.body.toString("utf8").slice(0, 200)}`);
  if (r.status >= 400 && c.method !== "HEAD") {
    const p = statusProblem(s, r.status);
    if (p) out.push(`HTTP ${r.status}: ${p}: ${r.body.toString("utf8").slice(0, 200)}`);
  }
  if (c.flaw !== "" && r.status < 300 && looksStored(r)) out.push(`flawed write (${c.flaw}) succeeded with ${r.status}`);
  if (r.status < 300 && c.stream) {
    const first = r.body.toString("utf8").split("\n")[0] ?? "";
    if (first !== "") {
      let ev: { type?: string; object?: StatusBody } | undefined;
      try {
        ev = JSON.parse(first) as typeof ev;
      } catch {
        out.push(`watch line is not JSON: ${first.slice(0, 200)}`);
      }
      if (ev?.type === "ERROR") {
        const code = typeof ev.object?.code === "number" ? ev.object.code : 0;
        const p = statusProblem(ev.object, code);
        if (p || code >= 500) out.push(`watch ERROR event ${code}: ${p ?? String(ev.object?.message)}`);
      }
    }
  } else if (r.status < 300 && String(r.headers["content-type"] ?? "").startsWith("application/json") && c.method !== "HEAD") {
    try {
      JSON.parse(r.body.toString("utf8"));
    } catch {
      out.push(`HTTP ${r.status} application/json body does not parse`);
    }
  }
  return out;
}

/** True when the first line of a cut stream is an in-band ERROR event (counted separately). */
export function isWatchError(c: FuzzCase, r: RawResponse): boolean {
  return c.stream === true && r.status === 200 && r.body.toString("utf8").startsWith('{"type":"ERROR"');
}
