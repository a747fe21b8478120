/**
 * The work estimator (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/request/width.go,
 * workEstimator.estimate): LIST and WATCH by object count, writes by watchers, the rest one seat.
 */
import { estimateListWork, groupResourceKey, type ObjectCountGetter } from "./list-work-estimator.ts";
import { estimateMutatingWork } from "./mutating-work-estimator.ts";
import { oneSeat, type WorkEstimate } from "./width.ts";

/** What the estimator reads of the server. */
export interface WorkEstimatorSources {
  objectCount: ObjectCountGetter;
  /** Open watches of a resource (`resource` or `resource.group`). */
  watchCount: (groupResource: string) => number;
}

/** The request facts the estimate needs. */
export interface EstimatedRequest {
  isResourceRequest: boolean;
  verb: string;
  apiGroup: string;
  resource: string;
  query: URLSearchParams;
}

/** estimate: the request's work estimate under a priority level allowing `maxSeats` per request. */
export function estimateWork(r: EstimatedRequest, sources: WorkEstimatorSources, maxSeats: number): WorkEstimate {
  if (!r.isResourceRequest) return oneSeat;
  switch (r.verb) {
    case "list":
    case "watch":
      return estimateListWork({ verb: r.verb, apiGroup: r.apiGroup, resource: r.resource, query: r.query }, sources.objectCount, maxSeats);
    case "create":
    case "update":
    case "patch":
    case "delete":
      return estimateMutatingWork(sources.watchCount(groupResourceKey(r.apiGroup, r.resource)), maxSeats);
    default:
      return oneSeat;
  }
}
