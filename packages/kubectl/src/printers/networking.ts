/** ServiceCIDR and IPAddress tables (printers.go printServiceCIDR, printIPAddress). */
import type { IPAddress, ServiceCIDR } from "../types.ts";
import { translateTimestampSince } from "../util/duration.ts";
import { ageColumn, buildTable, column, nameColumn, type PrintOptions, type Table, type TableColumnDefinition } from "./table.ts";

/** NAME CIDRS AGE. */
export function serviceCIDRColumns(): TableColumnDefinition[] {
  return [nameColumn(), column("CIDRs", "list of IP blocks in CIDR notation"), ageColumn()];
}

/** printServiceCIDRTable: spec.cidrs ","-joined. */
export function printServiceCIDRTable(items: readonly ServiceCIDR[], opts: PrintOptions = {}): Table {
  return buildTable(
    serviceCIDRColumns(),
    items,
    (sc, _wide, now) => [sc.metadata?.name ?? "", (sc.spec?.cidrs ?? []).join(","), translateTimestampSince(sc.metadata?.creationTimestamp, now)],
    opts,
  );
}

/** NAME PARENTREF (upstream defines two columns; the row's extra age cell is never shown). */
export function ipAddressColumns(): TableColumnDefinition[] {
  return [nameColumn(), column("ParentRef", "ParentRef references the resource (usually a Service) that this IP address is assigned to.")];
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

/** printIPAddressTable: rows keep upstream's third (age) cell, which kubectl drops. */
export function printIPAddressTable(items: readonly IPAddress[], opts: PrintOptions = {}): Table {
  return buildTable(
    ipAddressColumns(),
    items,
    (ip, _wide, now) => [ip.metadata?.name ?? "", formatParentRef(ip), translateTimestampSince(ip.metadata?.creationTimestamp, now)],
    opts,
  );
}
