/**
 * WithTimeoutForNonLongRunningRequests (staging/src/k8s.io/apiserver/pkg/server/filters/timeout.go):
 * a request still unanswered after the request timeout (`--request-timeout`, 60 s) gets a 504
 * Status, so a stuck storage call never hangs its client. The handler goes on; its late answer
 * is dropped (the response is already sent). Watches are exempt.
 */
import { StatusError } from "@servicenet/api";
import { sendError } from "../http.ts";
import { unroutedLabels, type Filter } from "./context.ts";

/** Upstream's default `--request-timeout`. */
export const defaultRequestTimeoutMs = 60_000;

/** Races `next` against the timeout for every request that is not long-running. */
export function withTimeout(timeoutMs = defaultRequestTimeoutMs): Filter {
  return (next) => async (ctx) => {
    if (ctx.longRunning) return next(ctx);
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
