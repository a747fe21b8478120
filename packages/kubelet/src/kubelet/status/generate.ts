/**
 * The Pod status a kubelet reports for a simulated runtime at a moment, as
 * pkg/kubelet/kubelet_pods.go `generateAPIPodStatus` builds it: phase (`getPhase`), container
 * statuses sorted by name (`convertToAPIContainerStatuses`), init containers completed, the host
 * and pod IPs, and the conditions of pkg/kubelet/status/generate.go in upstream's order
 * (PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled). Also returns
 * when the answer will next change (a probe turning ready, a crash, a restart, a stop).
 */
import type { ContainerStatus, Pod, PodCondition, PodStatus } from "@servicenet/api";
import type { ContainerRuntime, PodRuntime } from "../pod-runtime.ts";
import type { Simulation } from "../simulation.ts";
import { readyAfterMs } from "../prober/readiness.ts";
import { rfc3339 } from "./time.ts";

/** What `generatePodStatus` needs besides the Pod. */
export interface StatusInput {
  rt: PodRuntime;
  sim: Simulation;
  /** The Node's InternalIPs, primary first (`hostIPs`). */
  hostIPs: readonly string[];
  now: number;
}

/** The status the kubelet owns, and the next time it changes. */
export interface GeneratedStatus {
  status: PodStatus;
  wakeAt: number | undefined;
}

type SpecContainer = Pod["spec"]["containers"][number];

/** The grace period of a Pod being deleted, in ms (deletionGracePeriodSeconds, else the spec's, else 30 s). */
export function gracePeriodMs(pod: Pod): number {
  const s = pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, s) * 1000;
}

/** When the containers of a Pod told to stop have stopped, and whether they exited on their own. */
export function stopTime(pod: Pod, rt: PodRuntime, sim: Simulation): { at: number; graceful: boolean } | undefined {
  if (rt.killedAt === undefined) return undefined;
  const grace = gracePeriodMs(pod);
  return { at: rt.killedAt + Math.min(sim.stopMs, grace), graceful: sim.stopMs <= grace };
}

interface ContainerAnswer {
  status: ContainerStatus;
  terminatedCode: number | undefined;
  wakeAt: number | undefined;
}

function terminated(exitCode: number, startedAt: number, finishedAt: number): Record<string, unknown> {
  return {
    exitCode,
    reason: exitCode === 0 ? "Completed" : "Error",
    startedAt: rfc3339(startedAt),
    finishedAt: rfc3339(finishedAt),
  };
}

function containerStatus(pod: Pod, spec: SpecContainer, c: ContainerRuntime, input: StatusInput): ContainerAnswer {
  const { rt, sim, now } = input;
  const stop = stopTime(pod, rt, sim);
  const base = {
    name: spec.name,
    image: spec.image ?? "",
    imageID: "",
    containerID: `simulated://${rt.uid}-${spec.name}-${c.restarts}`,
    restartCount: c.restarts,
    lastState: c.last ? { terminated: terminated(c.last.exitCode, c.last.startedAt, c.last.finishedAt) } : {},
  };
  if (c.finishedAt !== undefined) {
    const ended = terminated(c.exitCode ?? 1, c.startedAt, c.finishedAt);
    if (c.restartAt === undefined || (stop !== undefined && now >= stop.at)) {
      return {
        status: { ...base, ready: false, started: false, state: { terminated: ended } },
        terminatedCode: c.exitCode ?? 1,
        wakeAt: undefined,
      };
    }
    const backoff = Math.round((c.restartAt - c.finishedAt) / 1000);
    const waiting = {
      reason: "CrashLoopBackOff",
      message: `back-off ${backoff}s restarting failed container=${spec.name} pod=${pod.metadata.name ?? ""}_${pod.metadata.namespace ?? ""}(${rt.uid})`,
    };
    return {
      status: { ...base, ready: false, started: false, state: { waiting }, lastState: { terminated: ended } },
      terminatedCode: undefined,
      wakeAt: undefined,
    };
  }
  if (stop !== undefined && now >= stop.at) {
    const code = stop.graceful ? 0 : 137;
    return {
      status: { ...base, ready: false, started: false, state: { terminated: terminated(code, c.startedAt, stop.at) } },
      terminatedCode: code,
      wakeAt: undefined,
    };
  }
  const readyAt = c.startedAt + readyAfterMs(spec);
  const ready = !sim.failReadiness && now >= readyAt;
  const wakes = [!sim.failReadiness && now < readyAt ? readyAt : undefined, stop?.at].filter((t): t is number => t !== undefined);
  return {
    status: { ...base, ready, started: true, state: { running: { startedAt: rfc3339(c.startedAt) } } },
    terminatedCode: undefined,
    wakeAt: wakes.length > 0 ? Math.min(...wakes) : undefined,
  };
}

/** `getPhase` for a Pod whose init containers are done. */
function phaseOf(pod: Pod, answers: readonly ContainerAnswer[]): string {
  const codes = answers.map((a) => a.terminatedCode);
  if (codes.some((c) => c === undefined)) return "Running";
  if (codes.every((c) => c === 0)) return "Succeeded";
  // Every container ended and one failed: only restartPolicy Always or OnFailure would run it again.
  return pod.spec["restartPolicy"] === "Never" || pod.metadata.deletionTimestamp !== undefined ? "Failed" : "Running";
}

function condition(type: string, ok: boolean, reason?: string, message?: string): PodCondition {
  return { type, status: ok ? "True" : "False", ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** Ready and ContainersReady (`GeneratePodReadyCondition`, `GenerateContainersReadyCondition`). */
function readyConditions(pod: Pod, phase: string, statuses: readonly ContainerStatus[]): [PodCondition, PodCondition] {
  const unready = statuses.filter((s) => s.ready !== true).map((s) => s.name ?? "");
  let containersReady: PodCondition;
  if (phase === "Succeeded") containersReady = condition("ContainersReady", false, "PodCompleted");
  else if (unready.length > 0)
    containersReady = condition("ContainersReady", false, "ContainersNotReady", `containers with unready status: [${unready.join(" ")}]`);
  else containersReady = condition("ContainersReady", true);
  if (containersReady.status !== "True") return [{ ...containersReady, type: "Ready" }, containersReady];
  const gates = readinessGateProblems(pod);
  const ready = gates.length > 0 ? condition("Ready", false, "ReadinessGatesNotReady", gates.join(", ")) : condition("Ready", true);
  return [ready, containersReady];
}

/** pkg/kubelet/status/generate.go `generatePodReadinessGateConditions` messages. */
function readinessGateProblems(pod: Pod): string[] {
  const out: string[] = [];
  for (const g of pod.spec.readinessGates ?? []) {
    const c = pod.status?.conditions?.find((x) => x.type === g.conditionType);
    if (c === undefined) out.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
    else if (c.status !== "True") out.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`);
  }
  return out;
}

/** Keeps a condition's lastTransitionTime while its status stays (the status manager's `updateStatusInternal`). */
function withTransitionTimes(conds: PodCondition[], old: readonly PodCondition[], now: number): PodCondition[] {
  return conds.map((c) => {
    const prev = old.find((o) => o.type === c.type);
    const since = prev !== undefined && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : rfc3339(now);
    return {
      type: c.type,
      status: c.status,
      lastTransitionTime: since,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    };
  });
}

/** The kubelet's part of the Pod's status at `input.now`. */
export function generatePodStatus(pod: Pod, input: StatusInput): GeneratedStatus {
  const { rt, now } = input;
  const answers = pod.spec.containers.map((spec, i) =>
    containerStatus(pod, spec, rt.containers[i] ?? { startedAt: rt.startedAt, restarts: 0 }, input),
  );
  const statuses = answers.map((a) => a.status).sort((a, b) => ((a.name ?? "") < (b.name ?? "") ? -1 : 1));
  const phase = phaseOf(pod, answers);
  const terminal = phase === "Succeeded" || phase === "Failed";
  const [ready, containersReady] = readyConditions(pod, phase, statuses);
  const conds = withTransitionTimes(
    [
      condition("PodReadyToStartContainers", !terminal),
      condition("Initialized", true),
      ready,
      containersReady,
      condition("PodScheduled", true),
    ],
    pod.status?.conditions ?? [],
    now,
  );
  const inits = (pod.spec["initContainers"] as SpecContainer[] | undefined) ?? [];
  const wakes = answers.map((a) => a.wakeAt).filter((t): t is number => t !== undefined);
  const hostIPs = input.hostIPs;
  const status: PodStatus = {
    phase,
    conditions: conds,
    ...(hostIPs[0] !== undefined ? { hostIP: hostIPs[0], hostIPs: hostIPs.map((ip) => ({ ip })) } : {}),
    ...(rt.ips[0] !== undefined ? { podIP: rt.ips[0], podIPs: rt.ips.map((ip) => ({ ip })) } : {}),
    startTime: rfc3339(rt.startedAt),
    containerStatuses: statuses,
    ...(inits.length > 0
      ? {
          initContainerStatuses: inits.map((c) => ({
            name: c.name,
            image: c.image ?? "",
            imageID: "",
            containerID: `simulated://${rt.uid}-${c.name}-0`,
            ready: true,
            restartCount: 0,
            started: false,
            lastState: {},
            state: { terminated: terminated(0, rt.startedAt, rt.startedAt) },
          })),
        }
      : {}),
  };
  return { status, wakeAt: wakes.length > 0 ? Math.min(...wakes) : undefined };
}
