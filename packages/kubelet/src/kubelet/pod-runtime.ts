/**
 * The simulated container runtime of one Pod: when its sandbox and containers started, their
 * crashes and restarts (restartPolicy and the CrashLoopBackOff delays of
 * pkg/kubelet/kuberuntime/kuberuntime_manager.go `doBackOff`: the first restart at once, then
 * 10 s doubling to 5 min), and when it was told to stop. Nothing runs: times are enough to answer
 * what a container runtime would report at any moment.
 */
import type { Simulation } from "./simulation.ts";

/** One container's runs. */
export interface ContainerRuntime {
  /** Start of the current run (ms). */
  startedAt: number;
  restarts: number;
  /** The current run ended (it crashed) at this time, with this code. */
  finishedAt?: number | undefined;
  exitCode?: number | undefined;
  /** When the crashed container starts again (undefined for restartPolicy Never). */
  restartAt?: number | undefined;
  /** The previous run, reported as `lastState.terminated`. */
  last?: { startedAt: number; finishedAt: number; exitCode: number } | undefined;
}

/** What the kubelet keeps per Pod (a few hundred bytes: 10,000 Pods fit in a few MB). */
export interface PodRuntime {
  uid: string;
  /** Pod IPs, one per family in the Node's podCIDRs order (the Node's IPs for hostNetwork). */
  ips: string[];
  /** Sandbox created and containers first started (the Pod's startTime). */
  startedAt: number;
  containers: ContainerRuntime[];
  /** SIGTERM sent (deletionTimestamp seen). */
  killedAt?: number | undefined;
}

/** Back-off cap and base of pkg/kubelet/kubelet.go (`MaxContainerBackOff`, `backOffPeriod`). */
export const maxContainerBackOffMs = 300_000;
export const backOffPeriodMs = 10_000;

/** The delay before restart number `restarts + 1`. */
export function restartDelayMs(restarts: number): number {
  return restarts === 0 ? 0 : Math.min(backOffPeriodMs * 2 ** (restarts - 1), maxContainerBackOffMs);
}

/**
 * When a run that started at `startedAt` ends on its own and with which code: the crash (1) of
 * crash-after-seconds or the exit of exit-after-seconds, whichever comes first.
 */
function runEnd(startedAt: number, sim: Simulation): { at: number; code: number } | undefined {
  const crash = sim.crashAfterMs === undefined ? undefined : { at: startedAt + sim.crashAfterMs, code: 1 };
  const exit = sim.exitAfterMs === undefined ? undefined : { at: startedAt + sim.exitAfterMs, code: sim.exitCode };
  if (crash === undefined) return exit;
  if (exit === undefined) return crash;
  return exit.at < crash.at ? exit : crash;
}

/**
 * Whether a container that exited with `code` runs again (pkg/kubelet/container/helpers.go
 * `ShouldContainerBeRestarted`): Always restarts every exit, OnFailure a non-zero one, Never none.
 */
export function restarts(restartPolicy: string, code: number): boolean {
  if (restartPolicy === "Never") return false;
  if (restartPolicy === "OnFailure") return code !== 0;
  return true;
}

/** A new runtime: every container started at `now`. */
export function newPodRuntime(uid: string, ips: string[], containers: number, now: number): PodRuntime {
  return {
    uid,
    ips,
    startedAt: now,
    containers: Array.from({ length: containers }, () => ({ startedAt: now, restarts: 0 })),
  };
}

/**
 * Moves the containers' crashes, exits and restarts up to `now` and returns the next time something
 * changes (undefined: nothing will until the Pod changes). No container crashes or restarts once
 * the Pod was told to stop.
 */
export function advance(rt: PodRuntime, sim: Simulation, restartPolicy: string, now: number): number | undefined {
  let next: number | undefined;
  const soonest = (t: number) => (next = next === undefined ? t : Math.min(next, t));
  const stopAt = rt.killedAt ?? Infinity;
  for (const c of rt.containers) {
    for (;;) {
      const end = c.finishedAt === undefined ? runEnd(c.startedAt, sim) : undefined;
      if (end !== undefined) {
        if (end.at >= stopAt) break;
        if (now < end.at) {
          soonest(end.at);
          break;
        }
        c.finishedAt = end.at;
        c.exitCode = end.code;
        c.restartAt = restarts(restartPolicy, end.code) ? end.at + restartDelayMs(c.restarts) : undefined;
      }
      if (c.finishedAt === undefined || c.restartAt === undefined || c.restartAt >= stopAt) break;
      if (now < c.restartAt) {
        soonest(c.restartAt);
        break;
      }
      c.last = { startedAt: c.startedAt, finishedAt: c.finishedAt, exitCode: c.exitCode ?? 1 };
      c.startedAt = c.restartAt;
      c.restarts++;
      c.finishedAt = c.exitCode = c.restartAt = undefined;
    }
  }
  return next;
}
