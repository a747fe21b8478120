/**
 * The request-limiting slot of the handler chain: WithPriorityAndFairness
 * (staging/src/k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go) when API Priority and
 * Fairness is on, else WithMaxInFlightLimit (maxinflight.go), else nothing. DefaultBuildHandlerChain
 * places it after impersonation and before authorization, so that a request is classified by the
 * user it acts as and is queued before any authorizer work.
 */
import type { FlowControl } from "../../util/flowcontrol/apf-filter.ts";
import type { WatchTracker } from "../../util/flowcontrol/watch-tracker.ts";
import type { RequestInfo } from "../request-info.ts";
import type { Filter, Handler, RequestContext } from "./context.ts";
import type { MaxInFlightLimit } from "./maxinflight.ts";
import { dispatchUnderAPF, tooManyRequests } from "./apf-dispatch.ts";

/** `--enable-priority-and-fairness` on: `apf`; off: `maxInFlight`. */
export interface FlowControlConfig {
  apf?: FlowControl;
  maxInFlight?: Pick<MaxInFlightLimit, "admit">;
  /** Counts open watches for the write estimates. */
  watchTracker?: WatchTracker;
}

const longRunningVerbs = new Set(["watch", "proxy"]);
const longRunningSubresources = new Set(["attach", "exec", "proxy", "log", "portforward"]);

/** BasicLongRunningRequestCheck(watch and proxy verbs; attach, exec, proxy, log, portforward subresources). */
export function isLongRunning(info: RequestInfo | undefined): boolean {
  return info !== undefined && (longRunningVerbs.has(info.verb) || longRunningSubresources.has(info.subresource));
}

/**
 * Runs each request under the configured limit; a rejected one is answered 429 and its code left
 * on the context. Without a limit the filter passes every request through, as a server with APF
 * off and no `--max-requests-inflight` would.
 */
export function withFlowControl(cfg: FlowControlConfig | undefined): Filter {
  if (cfg === undefined || (cfg.apf === undefined && cfg.maxInFlight === undefined)) return (next) => next;
  return (next) => (ctx) => underLimit(cfg, ctx, next);
}

async function underLimit(fc: FlowControlConfig, ctx: RequestContext, next: Handler): Promise<void> {
  let info: RequestInfo | undefined;
  try {
    info = ctx.requestInfo();
  } catch {
    // A path that does not parse is answered by the handler, unlimited.
    return next(ctx);
  }
  if (info?.verb === "watch" && fc.watchTracker) ctx.res.once("close", fc.watchTracker.registerWatch(info.group, info.resource));
  if (fc.apf) {
    // Without authentication there is no user to classify (in-process tests).
    if (ctx.user === undefined || (isLongRunning(info) && info?.verb !== "watch")) return next(ctx);
    const r = await dispatchUnderAPF(fc.apf, ctx.req, ctx.res, ctx.user, ctx.path, ctx.url.searchParams, info, () => next(ctx));
    if (!r.served) ctx.code = r.code;
    return;
  }
  const release = fc.maxInFlight!.admit(info?.verb ?? (ctx.req.method ?? "GET").toLowerCase(), isLongRunning(info), ctx.user);
  if (release === undefined) {
    ctx.code = tooManyRequests(ctx.res);
    return;
  }
  try {
    await next(ctx);
  } finally {
    release();
  }
}
