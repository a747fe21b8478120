/** Query-string options of the resource verbs (metav1 ListOptions, CreateOptions, DeleteOptions). */
import { StatusError, type DeleteOptions } from "@servicenet/api";
import type { DeleteParams, ListParams } from "../registry/generic/options.ts";
import { parseFieldSelector } from "../registry/generic/selection/fields.ts";
import { parseLabelSelector } from "../registry/generic/selection/labels.ts";
import { queryBool, queryInt64 } from "./query-conversion.ts";

/** `dryRun=All` (the only defined value); anything else is 400 as upstream. */
export function parseDryRun(q: URLSearchParams, body?: readonly string[]): boolean {
  const vals = [...q.getAll("dryRun"), ...(body ?? [])].filter((v) => v !== "");
  for (const v of vals) if (v !== "All") throw StatusError.badRequest(`Invalid dryRun value: ${v}; supported values: All`);
  return vals.length > 0;
}

/** labelSelector, fieldSelector, limit, continue, resourceVersion, resourceVersionMatch. */
export function parseListParams(q: URLSearchParams): ListParams {
  const rvm = q.get("resourceVersionMatch") ?? "";
  if (rvm !== "" && rvm !== "Exact" && rvm !== "NotOlderThan") throw StatusError.badRequest(`invalid resourceVersionMatch: ${rvm}`);
  const limit = queryInt64(q, "limit");
  return {
    ...(q.get("labelSelector") ? { labelSelector: parseLabelSelector(q.get("labelSelector")!) } : {}),
    ...(q.get("fieldSelector") ? { fieldSelector: parseFieldSelector(q.get("fieldSelector")!) } : {}),
    // A limit beyond 2^53 means "everything"; storage binds it as an integer (SQLite refuses 1e19).
    ...(limit !== undefined && limit > 0n ? { limit: Number(limit > maxSafe ? maxSafe : limit) } : {}),
    ...(q.get("continue") ? { continue: q.get("continue")! } : {}),
    ...(q.get("resourceVersion") !== null ? { resourceVersion: q.get("resourceVersion")! } : {}),
    ...(rvm !== "" ? { resourceVersionMatch: rvm } : {}),
  };
}

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `timeoutSeconds` for watches: undefined for none or 0 (the server's default then, as upstream's
 * ListResource), negative ones kept (upstream's timer fires at once).
 */
export function parseTimeoutSeconds(q: URLSearchParams): number | undefined {
  const t = queryInt64(q, "timeoutSeconds");
  if (t === undefined || t === 0n) return undefined;
  return Number(t > maxSafe ? maxSafe : t < -maxSafe ? -maxSafe : t);
}

/** ListOptions' `watch`, `allowWatchBookmarks` and `sendInitialEvents` flags. */
export function parseWatchFlags(q: URLSearchParams): { watch: boolean; allowWatchBookmarks: boolean; sendInitialEvents: boolean } {
  return {
    watch: queryBool(q, "watch") ?? false,
    allowWatchBookmarks: queryBool(q, "allowWatchBookmarks") ?? false,
    sendInitialEvents: queryBool(q, "sendInitialEvents") ?? false,
  };
}

/** Query parameters and DeleteOptions body merged (the body wins where both are given). */
export function parseDeleteParams(q: URLSearchParams, body: DeleteOptions | undefined): DeleteParams {
  const propagation = body?.propagationPolicy ?? q.get("propagationPolicy") ?? undefined;
  if (propagation !== undefined && !["Orphan", "Background", "Foreground"].includes(propagation)) {
    throw StatusError.invalid({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", [
      {
        type: "NotSupported",
        field: "propagationPolicy",
        badValue: propagation,
        detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
      },
    ]);
  }
  const orphan = body?.orphanDependents ?? queryBool(q, "orphanDependents");
  // ValidateDeleteOptions: the deprecated field and its replacement exclude each other.
  if (orphan !== undefined && propagation !== undefined) {
    throw StatusError.invalid({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", [
      {
        type: "Invalid",
        field: "propagationPolicy",
        badValue: propagation,
        detail: "orphanDependents and deletionPropagation cannot be both set",
      },
    ]);
  }
  const graceParam = queryInt64(q, "gracePeriodSeconds");
  const grace = body?.gracePeriodSeconds ?? (graceParam !== undefined ? Number(graceParam) : undefined);
  return {
    ...(body?.preconditions
      ? {
          preconditions: {
            ...(body.preconditions.uid ? { uid: body.preconditions.uid } : {}),
            ...(body.preconditions.resourceVersion ? { resourceVersion: body.preconditions.resourceVersion } : {}),
          },
        }
      : {}),
    ...(propagation ? { propagationPolicy: propagation } : {}),
    ...(orphan !== undefined ? { orphanDependents: orphan } : {}),
    ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}),
    dryRun: parseDryRun(q, body?.dryRun),
  };
}

/** The field manager: the `fieldManager` parameter, else the user agent's first word, as upstream. */
export function fieldManagerOf(q: URLSearchParams, userAgent: string | undefined): string {
  const m = q.get("fieldManager");
  if (m !== null && m !== "") {
    if (m.length > 128) throw StatusError.badRequest(`fieldManager: Too long: may not be more than 128 bytes`);
    return m;
  }
  return (userAgent ?? "unknown").split("/")[0]!.slice(0, 128) || "unknown";
}
