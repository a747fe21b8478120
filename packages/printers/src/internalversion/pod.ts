/**
 * The Pod table (printers.go printPod), followed whole: init containers and sidecars (restartable
 * init containers), SchedulingGated, Completed-while-running, Terminating only for non-terminal
 * Pods, and the Completed row condition of a finished Pod.
 */
import type { ContainerState, ContainerStatus, Pod, Table, TableRowCondition } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type RowOptions, type TableHandler } from "../tablegenerator.ts";
import { parseTime, translateTimestampSince } from "./time.ts";

/** A Pod's fields printPod reads beyond the modelled ones (the Pod schema keeps them loosely). */
interface PodPrintView {
  initContainers?: { name?: string; restartPolicy?: string }[];
}
interface PodStatusPrintView {
  initContainerStatuses?: (ContainerStatus & { started?: boolean })[];
}

/** podSuccessConditions / podFailedConditions of printers.go: the row of a finished Pod. */
const podSuccessConditions: TableRowCondition[] = [
  { type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." },
];
const podFailedConditions: TableRowCondition[] = [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }];

/** The row conditions printPod sets from the phase. */
function podRowConditions(pod: Pod): TableRowCondition[] | undefined {
  if (pod.status?.phase === "Succeeded") return podSuccessConditions;
  if (pod.status?.phase === "Failed") return podFailedConditions;
  return undefined;
}

/** Later of two times, Go's zero time (null) being the earliest. */
const later = (a: Date | null, b: string | undefined): Date | null => {
  const t = parseTime(b);
  return t !== null && (a === null || t > a) ? t : a;
};

/** podutil.IsRestartableInitContainer: an init container with restartPolicy Always (a sidecar). */
const isRestartable = (c: { restartPolicy?: string } | undefined): boolean => c?.restartPolicy === "Always";

/** The terminated container's reason as printPod words it: its reason, else Signal:N or ExitCode:N. */
function terminatedReason(t: NonNullable<ContainerState["terminated"]>): string {
  if (t.reason) return t.reason;
  return t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`;
}

interface PodCounts {
  reason: string;
  restarts: number;
  ready: number;
  lastRestart: Date | null;
}

/**
 * The init-container walk of printPod: restarts and the last restart over all of them (and
 * separately over sidecars), ready sidecars, and the `Init:` reason of the first one not done.
 */
function walkInitContainers(pod: Pod, c: PodCounts): { initializing: boolean; sidecarRestarts: number; lastSidecarRestart: Date | null } {
  const specs = new Map(((pod.spec as PodPrintView | undefined)?.initContainers ?? []).map((ic) => [ic.name ?? "", ic]));
  const total = ((pod.spec as PodPrintView | undefined)?.initContainers ?? []).length;
  const statuses = (pod.status as PodStatusPrintView | undefined)?.initContainerStatuses ?? [];
  let sidecarRestarts = 0;
  let lastSidecarRestart: Date | null = null;
  for (const [i, cs] of statuses.entries()) {
    c.restarts += cs.restartCount ?? 0;
    c.lastRestart = later(c.lastRestart, cs.lastState?.terminated?.finishedAt);
    const sidecar = isRestartable(specs.get(cs.name ?? ""));
    if (sidecar) {
      sidecarRestarts += cs.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, cs.lastState?.terminated?.finishedAt);
    }
    const st = cs.state ?? {};
    if (st.terminated && (st.terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready) c.ready++;
      continue;
    }
    if (st.terminated) c.reason = `Init:${terminatedReason(st.terminated)}`;
    else if (st.waiting?.reason && st.waiting.reason !== "PodInitializing") c.reason = `Init:${st.waiting.reason}`;
    else c.reason = `Init:${i}/${total}`;
    return { initializing: true, sidecarRestarts, lastSidecarRestart };
  }
  return { initializing: false, sidecarRestarts, lastSidecarRestart };
}

const conditionTrue = (pod: Pod, type: string): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === "True");

/** The container walk of printPod (last to first: the first container's reason wins). */
function walkContainers(pod: Pod, c: PodCounts): void {
  let hasRunning = false;
  for (const cs of [...(pod.status?.containerStatuses ?? [])].reverse()) {
    c.restarts += cs.restartCount ?? 0;
    c.lastRestart = later(c.lastRestart, cs.lastState?.terminated?.finishedAt);
    const st = cs.state ?? {};
    if (st.waiting?.reason) c.reason = st.waiting.reason;
    else if (st.terminated) c.reason = terminatedReason(st.terminated);
    else if (cs.ready && st.running) {
      hasRunning = true;
      c.ready++;
    }
  }
  // Back to "Running" while a container still runs (a completed sidecar-less container beside it).
  if (c.reason === "Completed" && hasRunning) c.reason = conditionTrue(pod, "Ready") ? "Running" : "NotReady";
}

const terminalPhase = (phase: string | undefined): boolean => phase === "Succeeded" || phase === "Failed";

function printPod(pod: Pod, { wide, now }: RowOptions): unknown[] {
  const status = pod.status ?? {};
  const initSpecs = (pod.spec as PodPrintView | undefined)?.initContainers ?? [];
  const total = (pod.spec?.containers ?? []).length + initSpecs.filter(isRestartable).length;
  const c: PodCounts = { reason: status.reason || status.phase || "", restarts: 0, ready: 0, lastRestart: null };
  if ((status.conditions ?? []).some((x) => x.type === "PodScheduled" && x.reason === "SchedulingGated")) c.reason = "SchedulingGated";
  const init = walkInitContainers(pod, c);
  if (!init.initializing || conditionTrue(pod, "Initialized")) {
    c.restarts = init.sidecarRestarts;
    c.lastRestart = init.lastSidecarRestart;
    walkContainers(pod, c);
  }
  if (pod.metadata?.deletionTimestamp && status.reason === "NodeLost") c.reason = "Unknown";
  else if (pod.metadata?.deletionTimestamp && !terminalPhase(status.phase)) c.reason = "Terminating";
  const restartsCell =
    c.restarts !== 0 && c.lastRestart !== null
      ? `${c.restarts} (${translateTimestampSince(c.lastRestart.toISOString(), now)} ago)`
      : String(c.restarts);
  const cells: unknown[] = [
    pod.metadata?.name ?? "",
    `${c.ready}/${total}`,
    c.reason,
    restartsCell,
    translateTimestampSince(pod.metadata?.creationTimestamp, now),
  ];
  if (wide) {
    const gates = pod.spec?.readinessGates ?? [];
    const conds = status.conditions ?? [];
    const gatesCell =
      gates.length === 0
        ? "<none>"
        : `${gates.filter((g) => conds.find((x) => x.type === g.conditionType)?.status === "True").length}/${gates.length}`;
    // The internal PodIPs[0]: v1 -> internal conversion makes a set podIP authoritative
    // (Convert_v1_PodStatus_To_core_PodStatus), else podIPs[0].
    cells.push(
      status.podIP || status.podIPs?.[0]?.ip || "<none>",
      pod.spec?.nodeName || "<none>",
      status.nominatedNodeName || "<none>",
      gatesCell,
    );
  }
  return cells;
}

/** NAME READY STATUS RESTARTS AGE, wide: IP NODE NOMINATED NODE READINESS GATES. */
export const podHandler: TableHandler<Pod> = {
  columnDefinitions: [
    nameColumn(),
    column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
    column("Status", "The aggregate status of the containers in this pod."),
    column(
      "Restarts",
      "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
    ),
    ageColumn(),
    column("IP", "podIP address allocated to the pod.", { priority: 1 }),
    column("Node", "NodeName indicates in which node this pod is scheduled.", { priority: 1 }),
    column("Nominated Node", "nominatedNodeName is set only when this pod preempts other pods on the node.", { priority: 1 }),
    column("Readiness Gates", "If specified, all readiness gates will be evaluated for pod readiness.", { priority: 1 }),
  ],
  printRow: printPod,
  rowConditions: podRowConditions,
};

/** The Table the apiserver returns for pods. */
export function printPodTable(items: readonly Pod[], opts: PrintOptions = {}): Table {
  return generateTable(podHandler, items, opts);
}
