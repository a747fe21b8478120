/**
 * How a simulated Pod behaves, read from its annotations: the documented knobs standing in for what
 * a real container would do (fail its readiness probe, crash, take a while to stop on SIGTERM).
 * They are read at every sync, so `kubectl annotate` changes a running Pod.
 */
import type { Pod } from "@servicenet/api";

/** Any value but "false" makes every readiness probe of the Pod fail. */
export const readinessFailAnnotation = "kubelet.servicenet.io/fail-readiness";
/** Each container exits with code 1 this many seconds after it started (then restarts per restartPolicy). */
export const crashAfterAnnotation = "kubelet.servicenet.io/crash-after-seconds";
/** Seconds the containers take to stop after SIGTERM (default 3); past the grace period they are killed (137). */
export const stopSecondsAnnotation = "kubelet.servicenet.io/stop-seconds";

/** The simulated container stops this long after SIGTERM unless the Pod says otherwise. */
export const defaultStopMs = 3000;

/** The behaviour knobs of one Pod. */
export interface Simulation {
  failReadiness: boolean;
  /** ms a container runs before it crashes; undefined: it never does. */
  crashAfterMs: number | undefined;
  stopMs: number;
}

function seconds(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d+(\.\d+)?$/.test(v.trim())) return undefined;
  return Math.round(Number(v) * 1000);
}

/** The Pod's simulation knobs; malformed values are ignored (the defaults apply). */
export function simulationOf(pod: Pod): Simulation {
  const a = pod.metadata.annotations ?? {};
  const fail = a[readinessFailAnnotation];
  return {
    failReadiness: fail !== undefined && fail !== "false",
    crashAfterMs: seconds(a[crashAfterAnnotation]),
    stopMs: seconds(a[stopSecondsAnnotation]) ?? defaultStopMs,
  };
}
