/** Endpoints and EndpointSlice tables (printers.go printEndpoints, printEndpointSlice). */
import type { EndpointSlice, Endpoints } from "../types.ts";
import { translateTimestampSince } from "../util/duration.ts";
import { joinHostPort } from "../util/strings.ts";
import { ageColumn, buildTable, column, nameColumn, type PrintOptions, type Table, type TableColumnDefinition } from "./table.ts";

/** formatEndpoints: at most 3 "ip:port" entries, then " + N more..."; "<none>" when empty. */
export function formatEndpoints(ep: Endpoints, portNames: ReadonlySet<string> | null = null): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return "<none>";
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip ?? "");
      }
      continue;
    }
    for (const port of ports) {
      if (portNames !== null && !portNames.has(port.name ?? "")) continue;
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(a.ip ?? "", port.port ?? 0));
      }
    }
  }
  const ret = list.join(",");
  if (more) return `${ret} + ${count - max} more...`;
  return ret === "" ? "<none>" : ret;
}

/** NAME ENDPOINTS AGE. */
export function endpointsColumns(): TableColumnDefinition[] {
  return [nameColumn(), column("Endpoints", "The set of all endpoints is the union of all subsets."), ageColumn()];
}

/** printEndpointsTable: the Table the apiserver returns for endpoints. */
export function printEndpointsTable(items: readonly Endpoints[], opts: PrintOptions = {}): Table {
  return buildTable(
    endpointsColumns(),
    items,
    (ep, _wide, now) => [ep.metadata?.name ?? "", formatEndpoints(ep), translateTimestampSince(ep.metadata?.creationTimestamp, now)],
    opts,
  );
}

function listWithMoreString(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(",");
  if (more) return `${ret} + ${count - max} more...`;
  return ret === "" ? "<unset>" : ret;
}

/** formatDiscoveryPorts: port numbers (or names, or "*"), at most 3. */
export function formatDiscoveryPorts(ports: EndpointSlice["ports"]): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const port of ports ?? []) {
    if (list.length < 3) {
      list.push(port.port !== undefined && port.port !== null ? String(port.port) : (port.name ?? "*"));
    } else if (list.length === 3) {
      more = true;
    }
    count++;
  }
  return listWithMoreString(list, more, count, 3);
}

/** formatDiscoveryEndpoints: every address of every endpoint, at most 3. */
export function formatDiscoveryEndpoints(endpoints: EndpointSlice["endpoints"]): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ep of endpoints ?? []) {
    for (const address of ep.addresses ?? []) {
      if (list.length < 3) list.push(address);
      else if (list.length === 3) more = true;
      count++;
    }
  }
  return listWithMoreString(list, more, count, 3);
}

/** NAME ADDRESSTYPE PORTS ENDPOINTS AGE. */
export function endpointSliceColumns(): TableColumnDefinition[] {
  return [
    nameColumn(),
    column("AddressType", "addressType specifies the type of address carried by this EndpointSlice."),
    column("Ports", "ports specifies the list of network ports exposed by each endpoint in this slice."),
    column("Endpoints", "endpoints is a list of unique endpoints in this slice."),
    ageColumn(),
  ];
}

/** printEndpointSliceTable: the Table the apiserver returns for endpointslices. */
export function printEndpointSliceTable(items: readonly EndpointSlice[], opts: PrintOptions = {}): Table {
  return buildTable(
    endpointSliceColumns(),
    items,
    (eps, _wide, now) => [
      eps.metadata?.name ?? "",
      eps.addressType ?? "",
      formatDiscoveryPorts(eps.ports),
      formatDiscoveryEndpoints(eps.endpoints),
      translateTimestampSince(eps.metadata?.creationTimestamp, now),
    ],
    opts,
  );
}
