/**
 * The /debug/api_priority_and_fairness/ dumps (apf_controller_debug.go): upstream's headers and
 * columns, tabwriter alignment, waiting and executing requests, and the request details.
 */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { apfDebugDump, goDuration, rfc3339Nano, seatSeconds } from "./apf-controller-debug.ts";
import { FlowControl } from "./apf-filter.ts";
import type { RequestDigest } from "./match.ts";
import { newBootstrapFlowControl } from "./testing.ts";

function dispatcher(clock: FakeClock, serverConcurrencyLimit: number): FlowControl {
  return newBootstrapFlowControl({ clock, serverConcurrencyLimit }).fc;
}

const get = { isResourceRequest: true, verb: "get", apiGroup: "", resource: "services", query: new URLSearchParams() };
const digest = (name: string, groups: string[]): RequestDigest => ({
  user: { name, uid: "", groups: [...groups, "system:authenticated"] },
  requestInfo: {
    isResourceRequest: true,
    verb: "get",
    apiGroup: "",
    namespace: "ns1",
    resource: "services",
    subresource: "",
    name: "web",
    apiVersion: "v1",
    path: "/api/v1/namespaces/ns1/services/web",
  },
});

/** Starts requests that hang until `release`. */
function hang(fc: FlowControl, who: RequestDigest, n: number): () => void {
  const gates: (() => void)[] = [];
  for (let i = 0; i < n; i++) void fc.handle(who, get, { note: () => {}, exec: () => new Promise<void>((resolve) => gates.push(resolve)) });
  return () => gates.splice(0).forEach((g) => g());
}

const cells = (line: string): string[] => line.split(/,\s*/);
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("APF debug dumps", () => {
  const clock = new FakeClock(Date.UTC(2026, 11, 5, 17, 0, 0, 250));
  // 12 seats: global-default gets a nominal limit of 1, lent away while idle.
  const fc = dispatcher(clock, 12);
  const releaseAlice = hang(fc, digest("alice", []), 3);
  const releaseAdmin = hang(fc, digest("admin", ["system:masters"]), 1);

  it("dump_priority_levels: a row per level, sorted, aligned by tabwriter", async () => {
    await settle();
    const out = apfDebugDump(fc.config, "/debug/api_priority_and_fairness/dump_priority_levels", new URLSearchParams())!;
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests",
    );
    expect(lines.slice(1).map((l) => cells(l)[0])).toEqual([
      "catch-all",
      "exempt",
      "global-default",
      "leader-election",
      "node-high",
      "system",
      "workload-high",
      "workload-low",
    ]);
    // A current limit of 0 still lets one request run alone; alice's other two wait in her hand's queues.
    const qs = fc.config.priorityLevel("global-default")!.queueSet!;
    const active = qs.dump().queues.filter((q) => q.waiting.length > q.head).length;
    expect(qs.counts.requestsExecuting).toBe(1);
    expect(cells(lines[3]!)).toEqual(["global-default", String(active), "false", "false", "2", "1", "1", "0", "0", "0"]);
    expect(cells(lines[2]!)).toEqual(["exempt", "0", "false", "false", "0", "1", "1", "0", "0", "0"]);
    // Every cell but the last is padded to its column's width (minwidth 8, padding 1).
    const starts = (l: string): number[] => [...l.matchAll(/,\s+/g)].map((m) => m.index + m[0].length);
    for (const l of lines.slice(1)) expect(starts(l)).toEqual(starts(lines[0]!));
  });

  it("dump_queues: a row per queue with upstream's sums", () => {
    const out = apfDebugDump(fc.config, "/debug/api_priority_and_fairness/dump_queues", new URLSearchParams())!;
    const lines = out.trimEnd().split("\n");
    expect(cells(lines[0]!)).toEqual([
      "PriorityLevelName",
      "Index",
      "PendingRequests",
      "ExecutingRequests",
      "SeatsInUse",
      "NextDispatchR",
      "InitialSeatsSum",
      "MaxSeatsSum",
      "TotalWorkSum",
    ]);
    const gd = lines.filter((l) => l.startsWith("global-default,"));
    expect(gd).toHaveLength(fc.config.priorityLevel("global-default")!.queueSet!.dump().queues.length);
    const busy = gd.map(cells).find((c) => c[2] !== "0")!;
    const waiting = Number(busy[2]);
    expect(busy.slice(6)).toEqual([String(waiting), String(waiting), seatSeconds(waiting * 3000)]);
  });

  it("dump_requests: waiting, executing and queueless requests; details on request", () => {
    const plain = apfDebugDump(fc.config, "/debug/api_priority_and_fairness/dump_requests", new URLSearchParams())!.trimEnd().split("\n");
    expect(cells(plain[0]!)).toEqual([
      "PriorityLevelName",
      "FlowSchemaName",
      "QueueIndex",
      "RequestIndexInQueue",
      "FlowDistingsher",
      "ArriveTime",
      "InitialSeats",
      "FinalSeats",
      "AdditionalLatency",
      "StartTime",
    ]);
    expect(plain).toHaveLength(1 + 3 + 1);
    const admin = plain.map(cells).find((c) => c[0] === "exempt")!;
    expect(admin).toEqual(["exempt", "exempt", "-1", "-1", "", "2026-12-05T17:00:00.25Z", "1", "0", "0s", "2026-12-05T17:00:00.25Z"]);
    const waiting = plain.map(cells).filter((c) => c[0] === "global-default" && c[3] !== "-1");
    expect(waiting.map((c) => [c[1], c[3], c[4], c[9]])[0]).toEqual(["global-default", "0", "alice", "0001-01-01T00:00:00Z"]);

    const detailed = apfDebugDump(
      fc.config,
      "/debug/api_priority_and_fairness/dump_requests",
      new URLSearchParams("includeRequestDetails=1"),
    )!
      .trimEnd()
      .split("\n")
      .map(cells);
    expect(detailed[0]!.slice(10)).toEqual(["UserName", "Verb", "APIPath", "Namespace", "Name", "APIVersion", "Resource", "SubResource"]);
    expect(detailed.find((c) => c[0] === "exempt")!.slice(10)).toEqual([
      "admin",
      "get",
      "/api/v1/namespaces/ns1/services/web",
      "ns1",
      "web",
      "v1",
      "services",
      "",
    ]);
    releaseAlice();
    releaseAdmin();
  });

  it("answers nothing for another path under the prefix", () => {
    expect(apfDebugDump(fc.config, "/debug/api_priority_and_fairness/dump_flows", new URLSearchParams())).toBeUndefined();
  });

  it.each<[number, string]>([
    [0, "0.00000000ss"],
    [3000, "3.00000000ss"],
    [1.5, "0.00150000ss"],
  ])("SeatSeconds(%s seat-ms) is %s", (ms, want) => expect(seatSeconds(ms)).toBe(want));

  it("formats times and durations as Go does", () => {
    expect(rfc3339Nano(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe("2026-01-02T03:04:05Z");
    expect(rfc3339Nano(Date.UTC(2026, 0, 2, 3, 4, 5, 120))).toBe("2026-01-02T03:04:05.12Z");
    expect([goDuration(0), goDuration(5), goDuration(1500)]).toEqual(["0s", "5ms", "1.5s"]);
  });
});
