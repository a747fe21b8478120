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
/**
 * Each container exits on its own this many seconds after it started, with the code of
 * {@link exitCodeAnnotation} (default 0): a Job's Pod completes (restartPolicy Never or OnFailure
 * and code 0: the Pod goes `Succeeded`) or fails (code > 0 under Never: `Failed`).
 */
export const exitAfterAnnotation = "kubelet.servicenet.io/exit-after-seconds";
/** The exit code of {@link exitAfterAnnotation} (0-255; default 0). */
export const exitCodeAnnotation = "kubelet.servicenet.io/exit-code";
/** Seconds the containers take to stop after SIGTERM (default 3); past the grace period they are killed (137). */
export const stopSecondsAnnotation = "kubelet.servicenet.io/stop-seconds";

/** The simulated container stops this long after SIGTERM unless the Pod says otherwise. */
export const defaultStopMs = 3000;

/** The behaviour knobs of one Pod. */
export interface Simulation {
  failReadiness: boolean;
  /** ms a container runs before it crashes; undefined: it never does. */
  crashAfterMs: number | undefined;
  /** ms a container runs before it exits on its own with {@link Simulation.exitCode}; undefined: it never does. */
  exitAfterMs: number | undefined;
  exitCode: number;
  stopMs: number;
}

function seconds(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d+(\.\d+)?$/.test(v.trim())) return undefined;
  return Math.round(Number(v) * 1000);
}

function exitCode(v: string | undefined): number {
  if (v === undefined || !/^\d{1,3}$/.test(v.trim())) return 0;
  const n = Number(v);
  return n <= 255 ? n : 0;
}

/** The Pod's simulation knobs; malformed values are ignored (the defaults apply). */
export function simulationOf(pod: Pod): Simulation {
  const a = pod.metadata.annotations ?? {};
  const fail = a[readinessFailAnnotation];
  return {
    failReadiness: fail !== undefined && fail !== "false",
    crashAfterMs: seconds(a[crashAfterAnnotation]),
    exitAfterMs: seconds(a[exitAfterAnnotation]),
    exitCode: exitCode(a[exitCodeAnnotation]),
    stopMs: seconds(a[stopSecondsAnnotation]) ?? defaultStopMs,
  };
}
