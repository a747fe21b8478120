/** Service table (pkg/printers/internalversion/printers.go printService). */
import type { LoadBalancerIngress, Service, ServicePort } from "../types.ts";
import { translateTimestampSince } from "../util/duration.ts";
import { compareGo, formatLabels } from "../util/strings.ts";
import { ageColumn, buildTable, column, nameColumn, type PrintOptions, type Table, type TableColumnDefinition } from "./table.ts";

const loadBalancerWidth = 16;

/** Upstream's service columns: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, SELECTOR (wide). */
export function serviceColumns(): TableColumnDefinition[] {
  return [
    nameColumn(),
    column("Type", "type determines how the Service is exposed. Defaults to ClusterIP."),
    column("Cluster-IP", "clusterIP is the IP address of the service and is usually assigned randomly."),
    column("External-IP", "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service."),
    column("Port(s)", "The list of ports that are exposed by this service."),
    ageColumn(),
    column("Selector", "Route service traffic to pods with label keys and values matching this selector.", { priority: 1 }),
  ];
}

/** loadBalancerStatusStringer: sorted unique IPs/hostnames, clipped to 16 bytes unless wide. */
export function loadBalancerStatusStringer(ingress: readonly LoadBalancerIngress[], wide: boolean): string {
  const set = new Set<string>();
  for (const ing of ingress) {
    if (ing.ip) set.add(ing.ip);
    else if (ing.hostname) set.add(ing.hostname);
  }
  let r = [...set].sort(compareGo).join(",");
  if (!wide && r.length > loadBalancerWidth) r = r.slice(0, loadBalancerWidth - 3) + "...";
  return r;
}

/** getServiceExternalIP by service type; "<pending>" for a LoadBalancer without ingress. */
export function getServiceExternalIP(svc: Service, wide: boolean): string {
  const spec = svc.spec ?? {};
  const externalIPs = spec.externalIPs ?? [];
  switch (spec.type) {
    case "ClusterIP":
    case "NodePort":
      return externalIPs.length > 0 ? externalIPs.join(",") : "<none>";
    case "LoadBalancer": {
      const lb = loadBalancerStatusStringer(svc.status?.loadBalancer?.ingress ?? [], wide);
      if (externalIPs.length > 0) return [...(lb.length > 0 ? lb.split(",") : []), ...externalIPs].join(",");
      return lb.length > 0 ? lb : "<pending>";
    }
    case "ExternalName":
      return spec.externalName ?? "";
    default:
      return "<unknown>";
  }
}

/** makePortString: "80/TCP" or "80:30080/TCP", ","-joined. */
export function makePortString(ports: readonly ServicePort[]): string {
  return ports
    .map((p) => (p.nodePort && p.nodePort > 0 ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ""}` : `${p.port ?? 0}/${p.protocol ?? ""}`))
    .join(",");
}

/** The cells of one Service row. */
export function serviceCells(svc: Service, wide: boolean, now: Date): unknown[] {
  const spec = svc.spec ?? {};
  // v1 -> internal conversion fills clusterIPs from a legacy clusterIP, so mirror it.
  const clusterIPs = (spec.clusterIPs ?? []).length > 0 ? (spec.clusterIPs ?? []) : spec.clusterIP ? [spec.clusterIP] : [];
  const clusterIP = clusterIPs[0] ?? "<none>";
  const ports = makePortString(spec.ports ?? []);
  const cells: unknown[] = [
    svc.metadata?.name ?? "",
    spec.type ?? "",
    clusterIP,
    getServiceExternalIP(svc, wide),
    ports.length > 0 ? ports : "<none>",
    translateTimestampSince(svc.metadata?.creationTimestamp, now),
  ];
  if (wide) cells.push(formatLabels(spec.selector));
  return cells;
}

/** printServiceTable: the Table the apiserver returns for services. */
export function printServiceTable(items: readonly Service[], opts: PrintOptions = {}): Table {
  return buildTable(serviceColumns(), items, serviceCells, opts);
}
