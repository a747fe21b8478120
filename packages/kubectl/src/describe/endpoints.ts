/** `kubectl describe endpoints` and `kubectl describe endpointslice` (describe.go). */
import type { EndpointSlice, Endpoints, Event } from "@servicenet/api";
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, tabbedString } from "./prefix-writer.ts";
import { maybeDescribeEvents, printAnnotationsMultiline, printLabelsMultiline, type DescribeOptions } from "./common.ts";

const orNone = (s: string): string => (s.length === 0 ? "<none>" : s);

/** describeEndpoints: one block per subset, each followed by a blank line. */
export function describeEndpoints(ep: Endpoints, events?: readonly Event[], opts: DescribeOptions = {}): string {
  const meta = ep.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, "Subsets:\n");
    for (const subset of ep.subsets ?? []) {
      w.write(LEVEL_1, `Addresses:\t${orNone((subset.addresses ?? []).map((a) => a.ip ?? "").join(","))}\n`);
      const notReady = (subset.notReadyAddresses ?? []).map((a) => a.ip ?? "").join(",");
      w.write(LEVEL_1, `NotReadyAddresses:\t${orNone(notReady)}\n`);
      const ports = subset.ports ?? [];
      if (ports.length > 0) {
        w.write(LEVEL_1, "Ports:\n");
        w.write(LEVEL_2, "Name\tPort\tProtocol\n");
        w.write(LEVEL_2, "----\t----\t--------\n");
        for (const port of ports) {
          w.write(LEVEL_2, `${port.name ? port.name : "<unset>"}\t${port.port ?? 0}\t${port.protocol ?? ""}\n`);
        }
      }
      w.write(LEVEL_0, "\n");
    }
    maybeDescribeEvents(events, w, opts);
  });
}

/** describeEndpointSliceV1: ports table, then one "- Addresses:" block per endpoint. */
export function describeEndpointSlice(eps: EndpointSlice, events?: readonly Event[], opts: DescribeOptions = {}): string {
  const meta = eps.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, `AddressType:\t${eps.addressType ?? ""}\n`);
    const ports = eps.ports ?? [];
    if (ports.length === 0) {
      w.write(LEVEL_0, "Ports: <unset>\n");
    } else {
      w.write(LEVEL_0, "Ports:\n");
      w.write(LEVEL_1, "Name\tPort\tProtocol\n");
      w.write(LEVEL_1, "----\t----\t--------\n");
      for (const port of ports) {
        const name = port.name ? port.name : "<unset>";
        const num = port.port === undefined || port.port === null ? "<unset>" : String(port.port);
        w.write(LEVEL_1, `${name}\t${num}\t${port.protocol ?? ""}\n`);
      }
    }
    const endpoints = eps.endpoints ?? [];
    if (endpoints.length === 0) {
      w.write(LEVEL_0, "Endpoints: <none>\n");
    } else {
      w.write(LEVEL_0, "Endpoints:\n");
      for (const ep of endpoints) {
        w.write(LEVEL_1, `- Addresses:\t${orNone((ep.addresses ?? []).join(", "))}\n`);
        w.write(LEVEL_2, "Conditions:\n");
        const ready = ep.conditions?.ready;
        w.write(LEVEL_3, `Ready:\t${ready === undefined || ready === null ? "<unset>" : String(ready)}\n`);
        w.write(LEVEL_2, `Hostname:\t${ep.hostname ?? "<unset>"}\n`);
        if (ep.targetRef !== undefined && ep.targetRef !== null) {
          w.write(LEVEL_2, `TargetRef:\t${ep.targetRef.kind ?? ""}/${ep.targetRef.name ?? ""}\n`);
        }
        w.write(LEVEL_2, `NodeName:\t${ep.nodeName ?? "<unset>"}\n`);
        w.write(LEVEL_2, `Zone:\t${ep.zone ?? "<unset>"}\n`);
      }
    }
    maybeDescribeEvents(events, w, opts);
  });
}
