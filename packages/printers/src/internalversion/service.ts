/** The Service table (pkg/printers/internalversion/printers.go printService). */
import { serviceTypes, type LoadBalancerIngress, type Service, type ServicePort, type Table } from "@servicenet/api";
import { compareGo, formatLabels } from "../strings.ts";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type RowOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

const loadBalancerWidth = 16;

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

/** getServiceExternalIP by service type; "<pending>" for a LoadBalancer without ingress, "<unknown>" for no type. */
export function getServiceExternalIP(svc: Service, wide: boolean): string {
  const spec = svc.spec ?? {};
  const externalIPs = spec.externalIPs ?? [];
  switch (spec.type) {
    case serviceTypes.ClusterIP:
    case serviceTypes.NodePort:
      return externalIPs.length > 0 ? externalIPs.join(",") : "<none>";
    case serviceTypes.LoadBalancer: {
      const lb = loadBalancerStatusStringer(svc.status?.loadBalancer?.ingress ?? [], wide);
      if (externalIPs.length > 0) return [...(lb.length > 0 ? lb.split(",") : []), ...externalIPs].join(",");
      return lb.length > 0 ? lb : "<pending>";
    }
    case serviceTypes.ExternalName:
      return spec.externalName ?? "";
    default:
      return "<unknown>";
  }
}

/** makePortString: "80/TCP" or "80:30080/TCP" (`%d/%s` of port and protocol), ","-joined. */
export function makePortString(ports: readonly ServicePort[]): string {
  return ports
    .map((p) => (p.nodePort && p.nodePort > 0 ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ""}` : `${p.port ?? 0}/${p.protocol ?? ""}`))
    .join(",");
}

function printService(svc: Service, { wide, now }: RowOptions): unknown[] {
  const spec = svc.spec ?? {};
  // The internal object's clusterIPs; v1 -> internal conversion fills them from a legacy clusterIP.
  const clusterIPs = (spec.clusterIPs ?? []).length > 0 ? (spec.clusterIPs ?? []) : spec.clusterIP ? [spec.clusterIP] : [];
  const ports = makePortString(spec.ports ?? []);
  const cells: unknown[] = [
    svc.metadata?.name ?? "",
    spec.type ?? "",
    clusterIPs[0] ?? "<none>",
    getServiceExternalIP(svc, wide),
    ports.length > 0 ? ports : "<none>",
    translateTimestampSince(svc.metadata?.creationTimestamp, now),
  ];
  if (wide) cells.push(formatLabels(spec.selector));
  return cells;
}

/** NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide: SELECTOR. */
export const serviceHandler: TableHandler<Service> = {
  columnDefinitions: [
    nameColumn(),
    column("Type", "type determines how the Service is exposed. Defaults to ClusterIP."),
    column("Cluster-IP", "clusterIP is the IP address of the service and is usually assigned randomly."),
    column(
      "External-IP",
      "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
    ),
    column("Port(s)", "The list of ports that are exposed by this service."),
    ageColumn(),
    column("Selector", "Route service traffic to pods with label keys and values matching this selector.", { priority: 1 }),
  ],
  printRow: printService,
};

/** The Table the apiserver returns for services. */
export function printServiceTable(items: readonly Service[], opts: PrintOptions = {}): Table {
  return generateTable(serviceHandler, items, opts);
}
