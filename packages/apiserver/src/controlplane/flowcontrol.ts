/**
 * API Priority and Fairness for `startApiServer` (kube-apiserver's BuildPriorityAndFairness, or
 * WithMaxInFlightLimit with `--enable-priority-and-fairness=false`): the dispatcher with the
 * bootstrap configuration, the object counts of the served resources and the watch tracker.
 */
import { StatusError } from "@servicenet/api/errors";
import { backgroundClock } from "@servicenet/component-base/clock";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { defaultedBootstrapConfiguration, type FlowSchema } from "@servicenet/api/flowcontrol/v1";
import type { FlowControlConfig } from "../server/filters/flow-control.ts";
import { MaxInFlightLimit } from "../server/filters/maxinflight.ts";
import type { ResourceDef } from "../server/resources.ts";
import type { Store } from "../storage/index.ts";
import { resourcePrefix } from "../storage/keys.ts";
import { FlowControl } from "../util/flowcontrol/apf-filter.ts";
import { flowControlMetrics } from "../util/flowcontrol/metrics.ts";
import { groupResourceKey } from "../util/flowcontrol/request/list-work-estimator.ts";
import { ObjectCountTracker } from "../util/flowcontrol/request/object-count-tracker.ts";
import { WatchTracker } from "../util/flowcontrol/watch-tracker.ts";
import type { GenericStore } from "../registry/generic/store.ts";
import { desiredDanglingCondition, withCondition } from "../util/flowcontrol/dangling.ts";

/** The flags of the request limits. */
export interface FlowControlOptions {
  /** `--enable-priority-and-fairness` (default true). */
  enablePriorityAndFairness?: boolean;
  /** `--max-requests-inflight` (default 400). */
  maxRequestsInflight?: number;
  /** `--max-mutating-requests-inflight` (default 200). */
  maxMutatingRequestsInflight?: number;
  /** `--request-timeout` in ms (default 60 s): a queued request waits a quarter of it at most. */
  requestTimeoutMs?: number;
  /** `--etcd-count-metric-poll-period` in ms (default 1 minute). */
  objectCountPeriodMs?: number;
}

export const defaultMaxRequestsInflight = 400;
export const defaultMaxMutatingRequestsInflight = 200;

/** The request-limiting filter's config and a stop function for its pollers. */
export async function newFlowControl(
  o: FlowControlOptions,
  store: Store,
  resources: readonly ResourceDef[],
  registry: MetricsRegistry,
): Promise<{ config: FlowControlConfig; apf: FlowControl | undefined; signal: AbortSignal; stop(): void }> {
  const done = new AbortController();
  const readOnly = o.maxRequestsInflight ?? defaultMaxRequestsInflight;
  const mutating = o.maxMutatingRequestsInflight ?? defaultMaxMutatingRequestsInflight;
  const metrics = flowControlMetrics(registry);
  const watchTracker = new WatchTracker();
  if (o.enablePriorityAndFairness === false)
    return {
      config: { maxInFlight: new MaxInFlightLimit(readOnly, mutating, metrics), watchTracker },
      apf: undefined,
      signal: done.signal,
      stop: () => done.abort(),
    };
  const counts = new ObjectCountTracker();
  const byKey = new Map(resources.map((r) => [groupResourceKey(r.group, r.resource), r.storagePath]));
  await counts.start(
    [...byKey].map(([groupResource, storagePath]) => ({ groupResource, count: () => store.count(resourcePrefix(storagePath)) })),
    o.objectCountPeriodMs ?? 60_000,
    backgroundClock,
  );
  const apf = new FlowControl({
    serverConcurrencyLimit: readOnly + mutating,
    requestWaitLimitMs: (o.requestTimeoutMs ?? 60_000) / 4,
    metrics,
    addCollector: (fn) => registry.addCollector(fn),
    sources: { objectCount: (gr) => counts.get(gr), watchCount: (gr) => watchTracker.watchCount(gr) },
    clock: backgroundClock,
  });
  const { flowSchemas, priorityLevels } = defaultedBootstrapConfiguration();
  apf.update(flowSchemas, priorityLevels);
  const stopBorrowing = apf.runBorrowing();
  return {
    config: { apf, watchTracker },
    apf,
    signal: done.signal,
    stop: () => {
      done.abort();
      stopBorrowing();
      counts.stop(backgroundClock);
    },
  };
}

/**
 * The config controller's informers (apf_controller.go): the stored FlowSchemas and priority
 * levels, applied to the dispatcher now and again after every change, until `signal` aborts.
 */
export async function followAPFConfiguration(
  apf: FlowControl,
  stores: ReadonlyMap<string, GenericStore>,
  signal: AbortSignal,
): Promise<void> {
  const fss = stores.get("flowschemas");
  const pls = stores.get("prioritylevelconfigurations");
  if (fss === undefined || pls === undefined) return;
  const apply = async (): Promise<string> => {
    const [f, p] = await Promise.all([fss.list(undefined), pls.list(undefined)]);
    apf.update(f.items, p.items);
    await writeDanglingConditions(fss, f.items, new Set(p.items.map((pl) => pl.metadata.name ?? "")));
    return f.resourceVersion;
  };
  const rv = await apply();
  const follow = async (s: GenericStore): Promise<void> => {
    try {
      // Re-reading both lists keeps the digest whole; config changes are rare.
      for await (const _ of s.watch(undefined, { resourceVersion: rv, signal })) await apply();
    } catch {
      // The watch ended with the server (or was compacted away): the last digest stands.
    }
  };
  void follow(fss);
  void follow(pls);
}

/** Writes the Dangling condition of every FlowSchema whose condition is not yet what it should be. */
async function writeDanglingConditions(fss: GenericStore, items: readonly FlowSchema[], levels: ReadonlySet<string>): Promise<void> {
  for (const fs of items) {
    if (desiredDanglingCondition(fs, levels, new Date()) === undefined) continue;
    try {
      await fss.update(
        undefined,
        fs.metadata.name ?? "",
        async (cur) => {
          if (cur === null)
            throw StatusError.notFound({ group: "flowcontrol.apiserver.k8s.io", resource: "flowschemas" }, fs.metadata.name ?? "");
          const cond = desiredDanglingCondition(cur, levels, new Date());
          return cond === undefined ? cur : withCondition(cur, cond);
        },
        { subresource: "status" },
      );
    } catch {
      // Deleted or changed meanwhile: its watch event brings another pass.
    }
  }
}
