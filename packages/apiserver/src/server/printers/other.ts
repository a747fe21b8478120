/** Printer columns of events, EndpointSlices, ServiceCIDRs, IPAddresses and Leases (printers.go). */
import type { KubeObject } from "../../storage/index.ts";
import { age, arr, col, get, str, type TablePrinter } from "./columns.ts";

function eventCells(e: KubeObject, now: Date): unknown[] {
  const first = get(e, "firstTimestamp") ? age(get(e, "firstTimestamp"), now) : age(get(e, "eventTime"), now);
  let last = get(e, "lastTimestamp") ? age(get(e, "lastTimestamp"), now) : first;
  let count = Number(get(e, "count") ?? 0);
  const series = get(e, "series");
  if (series !== undefined && series !== null) {
    last = age(get(series, "lastObservedTime"), now);
    count = Number(get(series, "count") ?? 0);
  } else if (count === 0) count = 1;
  const kind = str(get(e, "involvedObject", "kind")).toLowerCase();
  const name = str(get(e, "involvedObject", "name"));
  const host = str(get(e, "source", "host"));
  const source = [str(get(e, "source", "component")), ...(host ? [host] : [])].join(", ");
  return [last, str(get(e, "type")), str(get(e, "reason")), name ? `${kind}/${name}` : kind, str(get(e, "involvedObject", "fieldPath")), source, str(get(e, "message")).trim(), first, count, e.metadata.name ?? ""];
}

export const eventPrinter: TablePrinter = {
  columns: [
    col("Last Seen", "string", 0, "The time at which the most recent occurrence of this event was recorded."),
    col("Type", "string", 0, "Type of this event (Normal, Warning), new types could be added in the future"),
    col("Reason", "string", 0, "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
    col("Object", "string", 0, "The object that this event is about."),
    col("Subobject", "string", 1, "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement."),
    col("Source", "string", 1, "The component reporting this event. Should be a short machine understandable string."),
    col("Message", "string", 0, "A human-readable description of the status of this operation."),
    col("First Seen", "string", 1, "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)"),
    col("Count", "string", 1, "The number of times this event has occurred."),
    col("Name", "string", 1, "Name must be unique within a namespace.", "name"),
  ],
  cells: eventCells,
};

/** Upstream listWithMoreString: at most `max` items, then ` + N more...`; "<unset>" when empty. */
function listWithMore(all: string[], max = 3): string {
  const shown = all.slice(0, max).join(",");
  if (all.length > max) return `${shown} + ${all.length - max} more...`;
  return shown === "" ? "<unset>" : shown;
}

export const endpointSlicePrinter: TablePrinter = {
  columns: [
    col("Name"),
    col("AddressType", "string", 0, "The IP protocol for this slice"),
    col("Ports", "string", 0, "Enumerated ports available for this slice"),
    col("Endpoints", "string", 0, "List of endpoints in this slice"),
    col("Age"),
  ],
  cells: (o, now) => {
    const ports = arr(get(o, "ports")).map((p) => (get(p, "port") !== undefined && get(p, "port") !== null ? str(get(p, "port")) : get(p, "name") ? str(get(p, "name")) : "*"));
    const addrs = arr(get(o, "endpoints")).flatMap((e) => arr(get(e, "addresses")).map(str));
    return [o.metadata.name ?? "", str(get(o, "addressType")), listWithMore(ports), listWithMore(addrs), age(o.metadata.creationTimestamp, now)];
  },
};

export const serviceCIDRPrinter: TablePrinter = {
  columns: [col("Name"), col("CIDRs", "string", 0, "list of IP blocks in CIDR notation"), col("Age")],
  cells: (o, now) => [o.metadata.name ?? "", arr(get(o, "spec", "cidrs")).map(str).join(","), age(o.metadata.creationTimestamp, now)],
};

/** lower(resource[.group])[/namespace]/name, or "<none>". */
function formatParentRef(o: KubeObject): string {
  const ref = get(o, "spec", "parentRef");
  if (ref === undefined || ref === null) return "<none>";
  const group = str(get(ref, "group"));
  const gr = group ? `${str(get(ref, "resource"))}.${group}` : str(get(ref, "resource"));
  const ns = str(get(ref, "namespace"));
  return `${gr.toLowerCase()}${ns ? `/${ns}` : ""}/${str(get(ref, "name"))}`;
}

export const ipAddressPrinter: TablePrinter = {
  columns: [col("Name"), col("ParentRef", "string", 0, "ParentRef references the resource (usually a Service) that this IP address is assigned to.")],
  // Upstream's rows carry a third (age) cell that kubectl never shows; kept for fidelity.
  cells: (o, now) => [o.metadata.name ?? "", formatParentRef(o), age(o.metadata.creationTimestamp, now)],
};

export const leasePrinter: TablePrinter = {
  columns: [col("Name"), col("Holder", "string", 0, "The holder of the lease"), col("Age")],
  cells: (o, now) => [o.metadata.name ?? "", str(get(o, "spec", "holderIdentity")), age(o.metadata.creationTimestamp, now)],
};
