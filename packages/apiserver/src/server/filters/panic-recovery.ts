/**
 * WithPanicRecovery (staging/src/k8s.io/apiserver/pkg/server/filters/wrap.go): whatever escapes
 * the rest of the chain (the JavaScript counterpart of a panic: filters and handlers write their
 * own errors as Status) is answered with upstream's plain-text 500 and logged with the request's
 * method, URI and audit ID, so the server never crashes and the client never hangs.
 */
import type { Filter } from "./context.ts";

/** The body net/http's http.Error writes for a recovered panic (a trailing newline added). */
export const panicMessage = "This request caused apiserver to panic. Look in the logs for details.";

/** Answers a 500 when `next` throws and nothing was written yet; logs either way. */
export const withPanicRecovery: Filter = (next) => async (ctx) => {
  try {
    await next(ctx);
  } catch (e) {
    ctx.logger.error("apiserver panic'd", {
      method: ctx.req.method,
      URI: ctx.req.url,
      auditID: ctx.auditID,
      err: e instanceof Error ? e.stack : String(e),
    });
    const { res } = ctx;
    ctx.code = 500;
    if (res.headersSent) {
      // The answer is under way: cut it, as net/http does when a handler panics mid-response.
      res.destroy();
      return;
    }
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" });
    res.end(`${panicMessage}\n`);
  }
};
