/**
 * The slot of WithPriorityAndFairness (staging/src/k8s.io/apiserver/pkg/server/filters/
 * priority-and-fairness.go): where DefaultBuildHandlerChain places API Priority and Fairness
 * (or WithMaxInFlightLimit without it), after impersonation and before authorization, so that a
 * request is classified by the user it acts as and is queued before any authorizer work.
 *
 * The flow controller itself (flow schemas, priority levels, queues) is passed in as a
 * {@link FlowControl}; without one the filter passes every request through, as a server with no
 * `--max-requests-inflight` limit and APF off would.
 */
import type { Filter, Handler, RequestContext } from "./context.ts";

/**
 * What the chain needs from a flow controller (upstream's utilflowcontrol.Interface Handle): run
 * `next` when the request's turn comes, or answer it (429 with Retry-After) when it is rejected.
 */
export interface FlowControl {
  handle(ctx: RequestContext, next: Handler): Promise<void>;
}

/** Hands each request to `flowControl`; a pass-through when there is none. */
export function withPriorityAndFairness(flowControl: FlowControl | undefined): Filter {
  if (flowControl === undefined) return (next) => next;
  return (next) => (ctx) => flowControl.handle(ctx, next);
}
