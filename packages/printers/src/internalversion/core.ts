/**
 * Pod, Node and Namespace tables (printers.go printPod, printNode, printNamespace). Pods follow
 * the common paths of printPod (container waiting/terminated reasons, Terminating, restarts with
 * "(Xago)"); init containers and sidecars are not modelled.
 */
import type { Namespace, Node, Pod, Table } from "@servicenet/api";
import { humanDuration } from "../duration/duration.ts";
import { compareGo } from "../strings.ts";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type RowOptions, type TableHandler } from "../tablegenerator.ts";
import { parseTime, translateTimestampSince } from "./time.ts";

function printPod(pod: Pod, { wide, now }: RowOptions): unknown[] {
  const status = pod.status ?? {};
  const statuses = status.containerStatuses ?? [];
  let reason = status.reason || status.phase || "";
  let restarts = 0;
  let ready = 0;
  let lastRestart: Date | null = null;
  for (const cs of [...statuses].reverse()) {
    restarts += cs.restartCount ?? 0;
    const finished = parseTime(cs.lastState?.terminated?.finishedAt);
    if (finished !== null && (lastRestart === null || finished > lastRestart)) lastRestart = finished;
    const st = cs.state ?? {};
    if (st.waiting?.reason) reason = st.waiting.reason;
    else if (st.terminated?.reason) reason = st.terminated.reason;
    else if (st.terminated) reason = st.terminated.signal ? `Signal:${st.terminated.signal}` : `ExitCode:${st.terminated.exitCode ?? 0}`;
    else if (cs.ready && st.running) ready++;
  }
  if (pod.metadata?.deletionTimestamp) reason = status.reason === "NodeLost" ? "Unknown" : "Terminating";
  const total = (pod.spec?.containers ?? []).length;
  const restartsCell =
    lastRestart === null ? String(restarts) : `${restarts} (${humanDuration(now.getTime() - lastRestart.getTime())} ago)`;
  const cells: unknown[] = [
    pod.metadata?.name ?? "",
    `${ready}/${total}`,
    reason,
    restartsCell,
    translateTimestampSince(pod.metadata?.creationTimestamp, now),
  ];
  if (wide) {
    const gates = pod.spec?.readinessGates ?? [];
    const trueConds = new Set((status.conditions ?? []).filter((c) => c.status === "True").map((c) => c.type));
    const gatesCell = gates.length === 0 ? "<none>" : `${gates.filter((g) => trueConds.has(g.conditionType)).length}/${gates.length}`;
    cells.push(status.podIP || "<none>", pod.spec?.nodeName || "<none>", status.nominatedNodeName || "<none>", gatesCell);
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
};

/** The Table the apiserver returns for pods. */
export function printPodTable(items: readonly Pod[], opts: PrintOptions = {}): Table {
  return generateTable(podHandler, items, opts);
}

/** findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted. */
export function findNodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith("node-role.kubernetes.io/")) {
      const role = k.slice("node-role.kubernetes.io/".length);
      if (role.length > 0) roles.add(role);
    } else if (k === "kubernetes.io/role" && v !== "") roles.add(v);
  }
  return [...roles].sort(compareGo);
}

function printNode(node: Node, { wide, now }: RowOptions): unknown[] {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === "Ready");
  const statuses: string[] = [];
  if (ready !== undefined) statuses.push(ready.status === "True" ? "Ready" : "NotReady");
  if (statuses.length === 0) statuses.push("Unknown");
  if (node.spec?.unschedulable) statuses.push("SchedulingDisabled");
  const roles = findNodeRoles(node);
  const info = node.status?.nodeInfo ?? {};
  const cells: unknown[] = [
    node.metadata?.name ?? "",
    statuses.join(","),
    roles.length > 0 ? roles.join(",") : "<none>",
    translateTimestampSince(node.metadata?.creationTimestamp, now),
    info.kubeletVersion ?? "",
  ];
  if (wide) {
    const addr = (t: string): string => (node.status?.addresses ?? []).find((a) => a.type === t)?.address ?? "<none>";
    cells.push(
      addr("InternalIP"),
      addr("ExternalIP"),
      info.osImage || "<unknown>",
      info.kernelVersion || "<unknown>",
      info.containerRuntimeVersion || "<unknown>",
    );
  }
  return cells;
}

/** NAME STATUS ROLES AGE VERSION, wide: INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME. */
export const nodeHandler: TableHandler<Node> = {
  columnDefinitions: [
    nameColumn(),
    column("Status", "The status of the node"),
    column("Roles", "The roles of the node"),
    ageColumn(),
    column("Version", "Kubelet Version reported by the node."),
    column("Internal-IP", "List of addresses reachable to the node.", { priority: 1 }),
    column("External-IP", "List of addresses reachable to the node.", { priority: 1 }),
    column("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", { priority: 1 }),
    column("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", { priority: 1 }),
    column("Container-Runtime", "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", {
      priority: 1,
    }),
  ],
  printRow: printNode,
};

/** The Table the apiserver returns for nodes. */
export function printNodeTable(items: readonly Node[], opts: PrintOptions = {}): Table {
  return generateTable(nodeHandler, items, opts);
}

/** NAME STATUS AGE. */
export const namespaceHandler: TableHandler<Namespace> = {
  columnDefinitions: [nameColumn(), column("Status", "The status of the namespace"), ageColumn()],
  printRow: (ns, { now }) => [
    ns.metadata?.name ?? "",
    ns.status?.phase ?? "",
    translateTimestampSince(ns.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for namespaces. */
export function printNamespaceTable(items: readonly Namespace[], opts: PrintOptions = {}): Table {
  return generateTable(namespaceHandler, items, opts);
}
