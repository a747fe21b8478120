/**
 * LIST and WATCH work estimates (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/request/
 * list_work_estimator.go): a seat per 100 objects the request processes, from the resource's
 * stored object count, between 1 and the priority level's max seats.
 */
import { minimumSeats, objectsPerSeat, oneSeat, type WorkEstimate } from "./width.ts";

/** The object count of a resource (`services`, `ipaddresses.networking.k8s.io`), or undefined when not tracked. */
export type ObjectCountGetter = (groupResource: string) => number | undefined;

/** The parts of a LIST or WATCH the estimate reads. */
export interface ListRequest {
  verb: "list" | "watch";
  apiGroup: string;
  resource: string;
  query: URLSearchParams;
}

/** The key of the object count tracker: `resource` or `resource.group` (schema.GroupResource's String). */
export function groupResourceKey(apiGroup: string, resource: string): string {
  return apiGroup === "" ? resource : `${resource}.${apiGroup}`;
}

/**
 * shouldListFromStorage (storage/cacher): with consistent lists from the cache (1.33's default) a
 * LIST goes to storage only to continue a page, for an exact resourceVersion, or for a limited list
 * at a resourceVersion other than 0.
 */
function listsFromStorage(q: URLSearchParams): boolean {
  const rv = q.get("resourceVersion") ?? "";
  const limit = Number(q.get("limit") ?? "0");
  if ((q.get("continue") ?? "") !== "") return true;
  if (q.get("resourceVersionMatch") === "Exact") return true;
  return limit > 0 && rv !== "" && rv !== "0";
}

/** estimate: the seats of a LIST or WATCH, capped at `maxSeats`. */
export function estimateListWork(req: ListRequest, count: ObjectCountGetter, maxSeats: number): WorkEstimate {
  const numStored = count(groupResourceKey(req.apiGroup, req.resource));
  // An untracked resource is served elsewhere or unknown: the minimum (ObjectCountNotFoundErr).
  if (numStored === undefined) return oneSeat;
  const limitText = req.query.get("limit");
  // Options that do not convert cost the most (ConvertToListOptions' error).
  if (limitText !== null && !/^-?\d+$/.test(limitText)) return { initialSeats: maxSeats, finalSeats: 0, additionalLatencyMs: 0 };
  const fromCache = req.verb === "watch" || !listsFromStorage(req.query);
  const limitParam = Number(limitText ?? "0");
  const limit = limitParam > 0 && limitParam < numStored ? limitParam : numStored;
  const selected = (req.query.get("labelSelector") ?? "") !== "" || (req.query.get("fieldSelector") ?? "") !== "";
  const processed = fromCache ? numStored : selected ? numStored + limit : 2 * limit;
  const seats = Math.min(Math.max(Math.ceil(processed / objectsPerSeat), minimumSeats), maxSeats);
  return { initialSeats: seats, finalSeats: 0, additionalLatencyMs: 0 };
}
