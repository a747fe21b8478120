/** Printer columns of the core/v1 kinds, as pkg/printers/internalversion/printers.go defines them. */
import type { KubeObject } from "../../storage/index.ts";
import { age, arr, col, formatLabels, get, str, type TablePrinter } from "./columns.ts";

function externalIPs(svc: KubeObject): string {
  const type = str(get(svc, "spec", "type"));
  const ext = arr(get(svc, "spec", "externalIPs")).map(str);
  const ingress = arr(get(svc, "status", "loadBalancer", "ingress")).map((i) => str(get(i, "ip")) || str(get(i, "hostname")));
  switch (type) {
    case "ClusterIP":
    case "NodePort":
    case "":
      return ext.length > 0 ? ext.join(",") : "<none>";
    case "LoadBalancer": {
      const all = [...ingress, ...ext];
      return all.length > 0 ? all.join(",") : "<pending>";
    }
    case "ExternalName":
      return str(get(svc, "spec", "externalName"));
    default:
      return "<unknown>";
  }
}

function servicePorts(svc: KubeObject): string {
  const ports = arr(get(svc, "spec", "ports"));
  if (ports.length === 0) return "<none>";
  return ports
    .map((p) => {
      const np = Number(get(p, "nodePort") ?? 0);
      const proto = str(get(p, "protocol")) || "TCP";
      return np > 0 ? `${str(get(p, "port"))}:${np}/${proto}` : `${str(get(p, "port"))}/${proto}`;
    })
    .join(",");
}

export const servicePrinter: TablePrinter = {
  columns: [
    col("Name"),
    col("Type", "string", 0, "The type of service."),
    col("Cluster-IP", "string", 0, "The IP address of the service."),
    col("External-IP", "string", 0, "The external IPs of the service."),
    col("Port(s)", "string", 0, "The ports of the service."),
    col("Age"),
    col("Selector", "string", 1, "Route service traffic to pods with label keys and values matching this selector."),
  ],
  cells: (o, now) => {
    const clusterIP = str(get(o, "spec", "clusterIP"));
    return [
      o.metadata.name ?? "",
      str(get(o, "spec", "type")),
      clusterIP === "" ? "<none>" : clusterIP,
      externalIPs(o),
      servicePorts(o),
      age(o.metadata.creationTimestamp, now),
      formatLabels(get(o, "spec", "selector")),
    ];
  },
};

/** Upstream formatEndpoints: `ip:port` pairs, at most 3, then ` + N more...`. */
function formatEndpoints(ep: KubeObject): string {
  const all: string[] = [];
  let count = 0;
  for (const ss of arr(get(ep, "subsets"))) {
    const ports = arr(get(ss, "ports"));
    for (const a of arr(get(ss, "addresses"))) {
      const ip = str(get(a, "ip"));
      if (ports.length === 0) {
        if (all.length < 3) all.push(ip);
        count++;
      }
      for (const p of ports) {
        if (all.length < 3) all.push(ip.includes(":") ? `[${ip}]:${str(get(p, "port"))}` : `${ip}:${str(get(p, "port"))}`);
        count++;
      }
    }
  }
  if (count === 0) return "<none>";
  return count > all.length ? `${all.join(",")} + ${count - all.length} more...` : all.join(",");
}

export const endpointsPrinter: TablePrinter = {
  columns: [col("Name"), col("Endpoints", "string", 0, "Endpoints of the associated service."), col("Age")],
  cells: (o, now) => [o.metadata.name ?? "", formatEndpoints(o), age(o.metadata.creationTimestamp, now)],
};

export const podPrinter: TablePrinter = {
  columns: [
    col("Name"),
    col("Ready", "string", 0, "The aggregate readiness state of this pod for accepting traffic."),
    col("Status", "string", 0, "The aggregate status of the containers in this pod."),
    col("Restarts", "string", 0, "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
    col("Age"),
    col("IP", "string", 1, "IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated."),
    col("Node", "string", 1, "NodeName is a request to schedule this pod onto a specific node."),
    col("Nominated Node", "string", 1, "nominatedNodeName is set only when this pod preempts other pods on the node."),
    col("Readiness Gates", "string", 1, "If specified, all readiness gates will be evaluated for pod readiness."),
  ],
  cells: (o, now) => {
    const containers = arr(get(o, "spec", "containers"));
    const statuses = arr(get(o, "status", "containerStatuses"));
    const ready = statuses.filter((s) => get(s, "ready") === true).length;
    const restarts = statuses.reduce<number>((n, s) => n + Number(get(s, "restartCount") ?? 0), 0);
    const reason = str(get(o, "status", "reason")) || str(get(o, "status", "phase"));
    const gates = arr(get(o, "spec", "readinessGates"));
    return [
      o.metadata.name ?? "",
      `${ready}/${containers.length}`,
      o.metadata.deletionTimestamp ? "Terminating" : reason,
      String(restarts),
      age(o.metadata.creationTimestamp, now),
      str(get(o, "status", "podIP")) || "<none>",
      str(get(o, "spec", "nodeName")) || "<none>",
      str(get(o, "status", "nominatedNodeName")) || "<none>",
      gates.length === 0 ? "<none>" : `0/${gates.length}`,
    ];
  },
};

function nodeStatus(o: KubeObject): string {
  const ready = arr(get(o, "status", "conditions")).find((c) => get(c, "type") === "Ready");
  const s = ready === undefined ? "Unknown" : get(ready, "status") === "True" ? "Ready" : "NotReady";
  return get(o, "spec", "unschedulable") === true ? `${s},SchedulingDisabled` : s;
}

function nodeRoles(o: KubeObject): string {
  const roles = Object.keys((o.metadata["labels"] as Record<string, string> | undefined) ?? {})
    .filter((k) => k.startsWith("node-role.kubernetes.io/"))
    .map((k) => k.slice("node-role.kubernetes.io/".length))
    .filter((r) => r !== "")
    .sort();
  return roles.length === 0 ? "<none>" : roles.join(",");
}

function nodeAddress(o: KubeObject, type: string): string {
  const a = arr(get(o, "status", "addresses")).find((x) => get(x, "type") === type);
  return a === undefined ? "<none>" : str(get(a, "address"));
}

export const nodePrinter: TablePrinter = {
  columns: [
    col("Name"),
    col("Status", "string", 0, "The status of the node"),
    col("Roles", "string", 0, "The roles of the node"),
    col("Age"),
    col("Version", "string", 0, "Kubelet Version reported by the node."),
    col("Internal-IP", "string", 1, "List of addresses reachable to the node. Queried from cloud provider, if available."),
    col("External-IP", "string", 1, "List of addresses reachable to the node. Queried from cloud provider, if available."),
    col("OS-Image", "string", 1, "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy))."),
    col("Kernel-Version", "string", 1, "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
    col("Container-Runtime", "string", 1, "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2)."),
  ],
  cells: (o, now) => {
    const info = (k: string): string => str(get(o, "status", "nodeInfo", k)) || "<unknown>";
    return [
      o.metadata.name ?? "",
      nodeStatus(o),
      nodeRoles(o),
      age(o.metadata.creationTimestamp, now),
      str(get(o, "status", "nodeInfo", "kubeletVersion")),
      nodeAddress(o, "InternalIP"),
      nodeAddress(o, "ExternalIP"),
      info("osImage"),
      info("kernelVersion"),
      info("containerRuntimeVersion"),
    ];
  },
};

export const namespacePrinter: TablePrinter = {
  columns: [col("Name"), col("Status", "string", 0, "The status of the namespace"), col("Age")],
  cells: (o, now) => [o.metadata.name ?? "", str(get(o, "status", "phase")), age(o.metadata.creationTimestamp, now)],
};
