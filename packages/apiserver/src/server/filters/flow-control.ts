/**
 * The request-limiting slot of the handler chain (DefaultBuildHandlerChain): priority and fairness
 * when enabled, else the max-in-flight limit, else nothing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserInfo } from "../../authentication/user/user.ts";
import type { FlowControl } from "../../util/flowcontrol/apf-filter.ts";
import type { WatchTracker } from "../../util/flowcontrol/watch-tracker.ts";
import type { RequestInfo } from "../request-info.ts";
import type { MaxInFlightLimit } from "./maxinflight.ts";
import { dispatchUnderAPF, tooManyRequests } from "./apf-dispatch.ts";
import type { FlowControl as ChainFlowControl } from "./priority-and-fairness.ts";

/** `--enable-priority-and-fairness` on: `apf`; off: `maxInFlight`. */
export interface FlowControlConfig {
  apf?: FlowControl;
  maxInFlight?: MaxInFlightLimit;
  /** Counts open watches for the write estimates. */
  watchTracker?: WatchTracker;
}

const longRunningVerbs = new Set(["watch", "proxy"]);
const longRunningSubresources = new Set(["attach", "exec", "proxy", "log", "portforward"]);

/** BasicLongRunningRequestCheck(watch and proxy verbs; attach, exec, proxy, log, portforward subresources). */
export function isLongRunning(info: RequestInfo | undefined): boolean {
  return info !== undefined && (longRunningVerbs.has(info.verb) || longRunningSubresources.has(info.subresource));
}

/** Runs `next` under the configured limit, or answers 429 and returns `rejected(429)`. */
export async function withFlowControl<R>(
  cfg: { flowControl?: FlowControlConfig | undefined },
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo | undefined,
  path: string,
  query: URLSearchParams,
  requestInfo: () => RequestInfo | undefined,
  next: () => Promise<R>,
  rejected: (code: number) => R,
): Promise<R> {
  const fc = cfg.flowControl;
  if (fc === undefined || (fc.apf === undefined && fc.maxInFlight === undefined)) return next();
  let info: RequestInfo | undefined;
  try {
    info = requestInfo();
  } catch {
    // A path that does not parse is answered by the handler, unlimited.
    return next();
  }
  if (info?.verb === "watch" && fc.watchTracker) res.once("close", fc.watchTracker.registerWatch(info.group, info.resource));
  if (fc.apf) {
    // Without authentication there is no user to classify (in-process tests).
    if (user === undefined || (isLongRunning(info) && info?.verb !== "watch")) return next();
    const r = await dispatchUnderAPF(fc.apf, req, res, user, path, query, info, next);
    return r.served ? r.value : rejected(r.code);
  }
  const release = fc.maxInFlight!.admit(info?.verb ?? (req.method ?? "GET").toLowerCase(), isLongRunning(info), user);
  if (release === undefined) return rejected(tooManyRequests(res));
  try {
    return await next();
  } finally {
    release();
  }
}

/**
 * The chain's priority-and-fairness slot for `cfg`: each request runs under the configured limit;
 * a rejected one has been answered 429 and its code is left on the context.
 */
export function flowControlFilter(cfg: FlowControlConfig | undefined): ChainFlowControl | undefined {
  if (cfg === undefined || (cfg.apf === undefined && cfg.maxInFlight === undefined)) return undefined;
  return {
    handle: (ctx, next) =>
      withFlowControl(
        { flowControl: cfg },
        ctx.req,
        ctx.res,
        ctx.user,
        ctx.path,
        ctx.url.searchParams,
        ctx.requestInfo,
        () => next(ctx),
        (code) => {
          ctx.code = code;
        },
      ),
  };
}
