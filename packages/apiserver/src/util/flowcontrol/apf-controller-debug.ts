/**
 * The debug dumps of API Priority and Fairness (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/
 * apf_controller_debug.go: dumpPriorityLevels, dumpQueues, dumpRequests): text tables laid out by
 * text/tabwriter (minwidth 8, padding 1), cells ending in ",", served under
 * /debug/api_priority_and_fairness/.
 */
import { TabWriter } from "@servicenet/printers/tabwriter";
import type { APFConfig, PriorityLevelState } from "./apf-controller.ts";
import type { DumpedRequest, Queue } from "./fairqueuing/queueset/types.ts";

/** The dump paths, by the name after /debug/api_priority_and_fairness/. */
export const apfDebugPathPrefix = "/debug/api_priority_and_fairness/";

const tabOptions = { minwidth: 8, tabwidth: 0, padding: 1, padchar: " " };

function table(rows: readonly (readonly string[])[]): string {
  const w = new TabWriter(tabOptions);
  for (const r of rows) w.write(`${r.join(",\t")}\n`);
  w.flush();
  return w.output();
}

function byName(config: APFConfig): PriorityLevelState[] {
  return [...config.priorityLevels].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function pendingOf(q: Queue): readonly DumpedRequest[] {
  return q.waiting.slice(q.head);
}

/** dumpPriorityLevels: one row per priority level. */
export function dumpPriorityLevels(config: APFConfig): string {
  const rows = [
    [
      "PriorityLevelName",
      "ActiveQueues",
      "IsIdle",
      "IsQuiescing",
      "WaitingRequests",
      "ExecutingRequests",
      "DispatchedRequests",
      "RejectedRequests",
      "TimedoutRequests",
      "CancelledRequests",
    ],
  ];
  for (const pl of byName(config)) {
    const qs = pl.queueSet;
    if (qs === undefined) {
      // An Exempt level: nothing waits, nothing is refused.
      const executing = pl.exemptExecuting.requests.size;
      rows.push([
        pl.name,
        "0",
        String(executing === 0),
        "false",
        "0",
        String(executing),
        String(pl.exemptExecuting.dispatched),
        "0",
        "0",
        "0",
      ]);
      continue;
    }
    const { queues } = qs.dump();
    const active = queues.filter((q) => q.waiting.length > q.head).length;
    const c = qs.counts;
    const idle = c.requestsWaiting === 0 && c.requestsExecuting === 0;
    rows.push([
      pl.name,
      String(active),
      String(idle),
      "false",
      String(c.requestsWaiting),
      String(c.requestsExecuting),
      String(c.dispatched),
      String(c.rejected),
      String(c.timedOut),
      String(c.cancelled),
    ]);
  }
  return table(rows);
}

/** dumpQueues: one row per queue of each priority level. */
export function dumpQueues(config: APFConfig): string {
  const rows = [
    [
      "PriorityLevelName",
      "Index",
      "PendingRequests",
      "ExecutingRequests",
      "SeatsInUse",
      "NextDispatchR",
      "InitialSeatsSum",
      "MaxSeatsSum",
      "TotalWorkSum",
    ],
  ];
  for (const pl of byName(config)) {
    for (const q of pl.queueSet?.dump().queues ?? []) {
      const pending = q.waiting.slice(q.head);
      let initial = 0;
      let max = 0;
      let work = 0;
      for (const r of pending) {
        initial += r.estimate.initialSeats;
        max += Math.max(r.estimate.initialSeats, r.estimate.finalSeats);
        work += r.totalWork;
      }
      rows.push([
        pl.name,
        String(q.index),
        String(pending.length),
        String(q.executing),
        String(q.seatsInUse),
        seatSeconds(q.nextDispatchR),
        String(initial),
        String(max),
        seatSeconds(work),
      ]);
    }
  }
  return table(rows);
}

/**
 * dumpRequests: one row per waiting request (its queue and position), per executing one (position
 * -1) and per queueless executing one (queue -1); `includeRequestDetails` adds who and what.
 */
export function dumpRequests(config: APFConfig, includeRequestDetails: boolean): string {
  const header = ["PriorityLevelName", "FlowSchemaName", "QueueIndex", "RequestIndexInQueue", "FlowDistingsher", "ArriveTime"];
  header.push("InitialSeats", "FinalSeats", "AdditionalLatency", "StartTime");
  if (includeRequestDetails) header.push("UserName", "Verb", "APIPath", "Namespace", "Name", "APIVersion", "Resource", "SubResource");
  const rows = [header];
  const add = (pl: PriorityLevelState, iq: number, ir: number, r: DumpedRequest): void => {
    rows.push(requestRow(pl.name, iq, ir, r, includeRequestDetails));
  };
  for (const pl of byName(config)) {
    const qs = pl.queueSet;
    if (qs === undefined) {
      for (const r of pl.exemptExecuting.requests) add(pl, -1, -1, r);
      continue;
    }
    const { queues, queuelessExecuting } = qs.dump();
    queues.forEach((q, iq) => {
      pendingOf(q).forEach((r, ir) => add(pl, iq, ir, r));
      for (const r of q.executingRequests) add(pl, iq, -1, r);
    });
    for (const r of queuelessExecuting) add(pl, -1, -1, r);
  }
  return table(rows);
}

function requestRow(plName: string, iq: number, ir: number, r: DumpedRequest, details: boolean): string[] {
  const d = r.descr;
  const row = [
    plName,
    d?.flowSchema ?? "",
    String(iq),
    String(ir),
    d?.flowDistinguisher ?? "",
    rfc3339Nano(r.arrivedAt),
    String(r.estimate.initialSeats),
    String(r.estimate.finalSeats),
    goDuration(r.estimate.additionalLatencyMs),
    r.startedAt === 0 ? "0001-01-01T00:00:00Z" : rfc3339Nano(r.startedAt),
  ];
  if (!details) return row;
  const ri = d?.digest.requestInfo;
  const res = ri?.isResourceRequest ? ri : undefined;
  const gv = res === undefined ? "" : res.apiGroup === "" ? (res.apiVersion ?? "") : `${res.apiGroup}/${res.apiVersion ?? ""}`;
  row.push(d?.digest.user.name ?? "", ri?.verb ?? "", ri?.path ?? "", res?.namespace ?? "", res?.name ?? "", gv, res?.resource ?? "");
  row.push(res?.subresource ?? "");
  return row;
}

/** SeatSeconds.String: fixed point with 8 decimals and the `ss` unit (R here is in seat-milliseconds). */
export function seatSeconds(seatMs: number): string {
  const ss = Math.round(seatMs * 1e5);
  const quo = Math.trunc(ss / 1e8);
  const rem = Math.abs(ss - quo * 1e8);
  return `${ss < 0 && quo === 0 ? "-" : ""}${quo}.${String(rem).padStart(8, "0")}ss`;
}

/** time.RFC3339Nano in UTC: fractional seconds without trailing zeros. */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, "Z");
}

/** time.Duration.String for the millisecond latencies of work estimates. */
export function goDuration(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  return `${ms / 1000}s`;
}

/**
 * Install's three handlers: the dump a path under /debug/api_priority_and_fairness/ names, or
 * undefined for any other path. `?includeRequestDetails=` (any non-empty value) widens dump_requests.
 */
export function apfDebugDump(config: APFConfig, path: string, query: URLSearchParams): string | undefined {
  if (!path.startsWith(apfDebugPathPrefix)) return undefined;
  switch (path.slice(apfDebugPathPrefix.length)) {
    case "dump_priority_levels":
      return dumpPriorityLevels(config);
    case "dump_queues":
      return dumpQueues(config);
    case "dump_requests":
      return dumpRequests(config, (query.get("includeRequestDetails") ?? "") !== "");
    default:
      return undefined;
  }
}
