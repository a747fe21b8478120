/** Upstream util/flowcontrol/request/width_test.go: TestWorkEstimator (LIST rows and mutating rows). */
import { describe, expect, it } from "vitest";
import { estimateWork } from "./work-estimator.ts";

const sources = (count: number | undefined, watches = 0) => ({ objectCount: () => count, watchCount: () => watches });
const req = (verb: string, query = "", isResourceRequest = true) => ({
  isResourceRequest,
  verb,
  apiGroup: "",
  resource: "services",
  query: new URLSearchParams(query),
});

describe("TestWorkEstimator", () => {
  it.each<[string, ReturnType<typeof req>, number | undefined, number, [number, number, number]]>([
    ["request has no RequestInfo / non-resource", req("get", "", false), 799, 0, [1, 0, 0]],
    ["request verb is not list", req("get"), 799, 0, [1, 0, 0]],
    ["request verb is list, conversion to ListOptions returns error", req("list", "limit=invalid"), 799, 0, [10, 0, 0]],
    ["request verb is list, resource version not set (from cache)", req("list"), 799, 0, [8, 0, 0]],
    ["request verb is list, continuation is set", req("list", "continue=token&limit=100&resourceVersion=1"), 799, 0, [2, 0, 0]],
    ["request verb is list, has limit and resource version is 1", req("list", "limit=399&resourceVersion=1"), 699, 0, [8, 0, 0]],
    ["request verb is list, limit not set, selector set, from storage", req("list", "continue=x&labelSelector=a%3Db"), 299, 0, [6, 0, 0]],
    ["request verb is list, maximum is capped", req("list"), 1_999_000, 0, [10, 0, 0]],
    ["request verb is list, list from cache, count not known", req("list"), undefined, 0, [1, 0, 0]],
    ["request verb is watch, from cache", req("watch"), 799, 0, [8, 0, 0]],
    ["request verb is create, no watches", req("create"), 0, 0, [1, 0, 0]],
    ["request verb is create, watches registered", req("create"), 0, 29, [1, 3, 5]],
    ["request verb is update, watches registered, capped", req("update"), 0, 199, [1, 10, 10]],
    ["request verb is patch, below one seat of watches", req("patch"), 0, 9, [1, 0, 0]],
  ])("%s", (_name, r, count, watches, [initial, final, latency]) => {
    const we = estimateWork(r, sources(count, watches), 10);
    expect([we.initialSeats, we.finalSeats, we.additionalLatencyMs]).toEqual([initial, final, latency]);
  });
});
