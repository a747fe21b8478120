/**
 * `TriggerTimeTracker` (pkg/controller/util/endpoint/trigger_time_tracker.go):
 * the `endpoints.kubernetes.io/last-change-trigger-time` value is the oldest
 * change (pod Ready transition, Service creation) not yet seen by a sync.
 */
import type { Pod, Service } from "@servicenet/api";

/** The annotation upstream writes on Endpoints and EndpointSlices. */
export const endpointsLastChangeTriggerTime = "endpoints.kubernetes.io/last-change-trigger-time";

interface ServiceState {
  lastServiceTriggerTime: number;
  podTriggerTimes: Map<string, number>;
}

function parseTime(t: string | undefined): number {
  const ms = t === undefined ? NaN : Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Per-service memory of the trigger times seen at the last sync. */
export class TriggerTimeTracker {
  readonly #states = new Map<string, ServiceState>();

  /**
   * Records the current trigger times of `service` and its `pods` and
   * returns the oldest one newer than at the previous call, as an RFC 3339
   * string, or undefined (then the annotation is removed).
   */
  compute(key: string, service: Service, pods: readonly Pod[]): string | undefined {
    const prev = this.#states.get(key);
    const next: ServiceState = { lastServiceTriggerTime: 0, podTriggerTimes: new Map() };
    let min = 0;
    const consider = (t: number) => (min = min === 0 ? t : Math.min(min, t));
    for (const pod of pods) {
      const ready = pod.status?.conditions?.find((c) => c.type === "Ready");
      const t = parseTime(ready?.lastTransitionTime);
      if (t === 0) continue;
      const name = pod.metadata.name ?? "";
      next.podTriggerTimes.set(name, t);
      if (t > (prev?.podTriggerTimes.get(name) ?? 0)) consider(t);
    }
    const svcTime = parseTime(service.metadata.creationTimestamp);
    if (svcTime > (prev?.lastServiceTriggerTime ?? 0)) consider(svcTime);
    next.lastServiceTriggerTime = svcTime;
    this.#states.set(key, next);
    return min === 0 ? undefined : formatRFC3339Nano(min);
  }

  /** Forgets a deleted Service. */
  deleteService(key: string): void {
    this.#states.delete(key);
  }
}

/** Go's `time.RFC3339Nano` in UTC: trailing zeros of the fraction dropped ("…:05Z", "…:05.5Z"). */
export function formatRFC3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, "Z");
}
