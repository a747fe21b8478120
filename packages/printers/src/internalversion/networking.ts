/** ServiceCIDR and IPAddress tables (printers.go printServiceCIDR, printIPAddress). */
import type { IPAddress, ServiceCIDR, Table } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** NAME CIDRS AGE; spec.cidrs ","-joined. */
export const serviceCIDRHandler: TableHandler<ServiceCIDR> = {
  columnDefinitions: [nameColumn(), column("CIDRs", "list of IP blocks in CIDR notation"), ageColumn()],
  printRow: (sc, { now }) => [
    sc.metadata?.name ?? "",
    (sc.spec?.cidrs ?? []).join(","),
    translateTimestampSince(sc.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for servicecidrs. */
export function printServiceCIDRTable(items: readonly ServiceCIDR[], opts: PrintOptions = {}): Table {
  return generateTable(serviceCIDRHandler, items, opts);
}

/** The PARENTREF cell: lower(resource[.group])[/namespace]/name, or "<none>". */
export function formatParentRef(ip: IPAddress): string {
  const ref = ip.spec?.parentRef;
  if (ref === undefined || ref === null) return "<none>";
  const gr = ref.group ? `${ref.resource ?? ""}.${ref.group}` : (ref.resource ?? "");
  let out = gr.toLowerCase();
  if (ref.namespace) out += `/${ref.namespace}`;
  return `${out}/${ref.name ?? ""}`;
}

/**
 * NAME PARENTREF. Upstream defines two columns but its rows carry a third (age) cell, which
 * kubectl drops (cells beyond the columns are ignored); kept for fidelity.
 */
export const ipAddressHandler: TableHandler<IPAddress> = {
  columnDefinitions: [
    nameColumn(),
    column("ParentRef", "ParentRef references the resource (usually a Service) that this IP address is assigned to."),
  ],
  printRow: (ip, { now }) => [ip.metadata?.name ?? "", formatParentRef(ip), translateTimestampSince(ip.metadata?.creationTimestamp, now)],
};

/** The Table the apiserver returns for ipaddresses. */
export function printIPAddressTable(items: readonly IPAddress[], opts: PrintOptions = {}): Table {
  return generateTable(ipAddressHandler, items, opts);
}
