/** Endpoints and EndpointSlice tables (printers.go printEndpoints, printEndpointSlice). */
import type { EndpointSlice, EndpointSliceEndpoint, EndpointSlicePort, Endpoints, Table } from "@servicenet/api";
import { joinHostPort } from "../strings.ts";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/**
 * formatEndpoints: at most 3 "ip:port" entries (ports outer, addresses inner), then " + N more...";
 * "<none>" only without subsets: subsets holding no ready address give "" (an empty cell), as
 * upstream. `portNames` limits the ports (describe's use).
 */
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
      // Headless services may have no ports.
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
  return ret;
}

/** NAME ENDPOINTS AGE. */
export const endpointsHandler: TableHandler<Endpoints> = {
  columnDefinitions: [nameColumn(), column("Endpoints", "The set of all endpoints is the union of all subsets."), ageColumn()],
  printRow: (ep, { now }) => [ep.metadata?.name ?? "", formatEndpoints(ep), translateTimestampSince(ep.metadata?.creationTimestamp, now)],
};

/** The Table the apiserver returns for endpoints. */
export function printEndpointsTable(items: readonly Endpoints[], opts: PrintOptions = {}): Table {
  return generateTable(endpointsHandler, items, opts);
}

function listWithMoreString(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(",");
  if (more) return `${ret} + ${count - max} more...`;
  return ret === "" ? "<unset>" : ret;
}

/** formatDiscoveryPorts: the port number, else the name (even ""), else "*"; at most 3. */
export function formatDiscoveryPorts(ports: readonly EndpointSlicePort[] | null | undefined): string {
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
export function formatDiscoveryEndpoints(endpoints: readonly EndpointSliceEndpoint[] | null | undefined): string {
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
export const endpointSliceHandler: TableHandler<EndpointSlice> = {
  columnDefinitions: [
    nameColumn(),
    column("AddressType", "addressType specifies the type of address carried by this EndpointSlice."),
    column("Ports", "ports specifies the list of network ports exposed by each endpoint in this slice."),
    column("Endpoints", "endpoints is a list of unique endpoints in this slice."),
    ageColumn(),
  ],
  printRow: (eps, { now }) => [
    eps.metadata?.name ?? "",
    eps.addressType ?? "",
    formatDiscoveryPorts(eps.ports),
    formatDiscoveryEndpoints(eps.endpoints),
    translateTimestampSince(eps.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for endpointslices. */
export function printEndpointSliceTable(items: readonly EndpointSlice[], opts: PrintOptions = {}): Table {
  return generateTable(endpointSliceHandler, items, opts);
}
