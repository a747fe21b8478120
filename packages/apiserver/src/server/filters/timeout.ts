/**
 * WithRequestDeadline (staging/src/k8s.io/apiserver/pkg/endpoints/filters/request_deadline.go) and
 * WithTimeoutForNonLongRunningRequests (staging/src/k8s.io/apiserver/pkg/server/filters/timeout.go):
 * a request's deadline is its `timeout` parameter, capped by the request timeout
 * (`--request-timeout`, 60 s), and kept on the context for what the request calls (admission
 * webhooks cut their timeout to it); a request still unanswered at its deadline gets a 504
 * Status, so a stuck storage call never hangs its client. The handler goes on; its late answer
 * is dropped (the response is already sent). Watches are exempt.
 */
import { StatusError } from "@servicenet/api";
import { parseGoDuration } from "@servicenet/component-base/duration";
import { sendError } from "../http.ts";
import { unroutedLabels, writeError, type Filter } from "./context.ts";

/** Upstream's default `--request-timeout`. */
export const defaultRequestTimeoutMs = 60_000;

/**
 * request_deadline.go parseTimeout and its choice: the `timeout` parameter when it is above zero
 * and below the maximum, else the maximum; a malformed one is a 400.
 */
export function requestTimeoutMs(query: URLSearchParams, maximumMs: number): number {
  const value = query.get("timeout") ?? "";
  if (value === "") return maximumMs;
  let userMs: number;
  try {
    userMs = parseGoDuration(value);
  } catch (e) {
    throw StatusError.badRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`);
  }
  return userMs > 0 && userMs < maximumMs ? userMs : maximumMs;
}

/** Races `next` against the request's deadline for every request that is not long-running. */
export function withTimeout(maximumMs = defaultRequestTimeoutMs): Filter {
  return (next) => async (ctx) => {
    if (ctx.longRunning) return next(ctx);
    let timeoutMs: number;
    try {
      timeoutMs = requestTimeoutMs(ctx.url.searchParams, maximumMs);
    } catch (e) {
      return writeError(ctx, e);
    }
    ctx.deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        const { req, res } = ctx;
        if (res.headersSent) return;
        // A body still arriving (or stalled) cannot be told apart from the next request on this
        // connection, so the answer closes it, as net/http does after a handler returns with the
        // body unread (`chunkWriter.writeHeader`: closeAfterReply).
        if (!req.complete) res.setHeader("Connection", "close");
        ctx.code = sendError(
          res,
          StatusError.timeout("Timeout: request did not complete within requested timeout - context deadline exceeded"),
        );
        ctx.labels = unroutedLabels(req.method ?? "");
        resolve();
      }, timeoutMs);
    });
    const handled = next(ctx);
    // After a timeout the handler's late failure has no one left to answer.
    handled.catch(() => {});
    try {
      await Promise.race([handled, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };
}
