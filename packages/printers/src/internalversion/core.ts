/**
 * Node and Namespace tables (printers.go printNode, printNamespace); the Pod table is in pod.ts.
 */
import type { Namespace, Node, Table } from "@servicenet/api";
import { compareGo } from "../strings.ts";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type RowOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

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
