/**
 * The body of WithPriorityAndFairness (staging/src/k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go),
 * which the chain's flow-control slot (flow-control.ts withFlowControl) runs: every request but the long-running non-watch ones goes through the dispatcher; the answer names
 * the FlowSchema and priority level it was classified into, and a rejected request gets 429
 * `Too many requests, please try again later.` with Retry-After (dropped-requests-tracker.ts), as net/http's http.Error writes it.
 * A WATCH holds its seats only until it starts answering (its initialization).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { responseHeaderMatchedFlowSchemaUID, responseHeaderMatchedPriorityLevelConfigurationUID } from "@servicenet/api/flowcontrol/v1";
import type { UserInfo } from "../../authentication/user/user.ts";
import type { FlowControl } from "../../util/flowcontrol/apf-filter.ts";
import type { RequestDigest } from "../../util/flowcontrol/match.ts";
import type { RequestInfo } from "../request-info.ts";
import { endWith } from "../framing.ts";

/** The Retry-After of a rejection by the max-in-flight limit (maxinflight.go's retryAfter). */
export const retryAfter = "1";

/** tooManyRequests: http.Error's plain-text 429 with `Retry-After` seconds. */
export function tooManyRequests(res: ServerResponse, after = retryAfter): number {
  endWith(
    res,
    429,
    { "Retry-After": after, "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
    "Too many requests, please try again later.\n",
  );
  return 429;
}

/**
 * The request digest of a resource request (its RequestInfo) or a non-resource one (the lower-cased
 * method and the path).
 */
export function requestDigest(user: UserInfo, method: string, path: string, info: RequestInfo | undefined): RequestDigest {
  if (info === undefined) return { user, requestInfo: { isResourceRequest: false, verb: method.toLowerCase(), path } };
  return {
    user,
    requestInfo: {
      isResourceRequest: true,
      verb: info.verb,
      apiGroup: info.group,
      namespace: info.namespace ?? "",
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
      apiVersion: info.version,
      path,
    },
  };
}

/**
 * Runs `next` under priority and fairness; the status code of a 429 when rejected. `info` is
 * undefined for non-resource paths.
 */
export async function dispatchUnderAPF<T>(
  fc: FlowControl,
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo,
  path: string,
  query: URLSearchParams,
  info: RequestInfo | undefined,
  next: () => Promise<T>,
): Promise<{ served: true; value: T } | { served: false; code: number }> {
  const method = req.method ?? "GET";
  const isWatch = info?.verb === "watch";
  const signal = abortOnClose(req, res);
  let priorityLevel = "";
  const r = await fc.handle(
    requestDigest(user, method, path, info),
    {
      isResourceRequest: info !== undefined,
      verb: info?.verb ?? method.toLowerCase(),
      apiGroup: info?.group ?? "",
      resource: info?.resource ?? "",
      query,
    },
    {
      note: (c) => {
        priorityLevel = c.priorityLevel.name;
        res.setHeader(responseHeaderMatchedFlowSchemaUID, c.flowSchema.metadata.uid ?? "");
        res.setHeader(responseHeaderMatchedPriorityLevelConfigurationUID, c.priorityLevel.uid);
      },
      exec: (release) => {
        if (isWatch) releaseOnFirstWrite(res, release);
        return next();
      },
      signal,
    },
  );
  if (r.served) return r;
  // Upstream's filter records the drop, then answers with its level's current Retry-After.
  fc.droppedRequests.recordDroppedRequest(priorityLevel);
  return { served: false, code: tooManyRequests(res, String(fc.droppedRequests.getRetryAfter(priorityLevel))) };
}

/** A WATCH is initialized once it writes its headers: its seats go back then. */
function releaseOnFirstWrite(res: ServerResponse, release: () => void): void {
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    release();
    return writeHead(...args);
  };
}

/** The request's context: cancelled when the client goes away before the answer. */
function abortOnClose(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) ac.abort();
  });
  req.once("aborted", () => ac.abort());
  return ac.signal;
}
