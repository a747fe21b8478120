/** `kubectl describe servicecidr` and `kubectl describe ipaddress` (describe.go, v1 and v1beta1 alike). */
import type { Event, IPAddress, ServiceCIDR } from "@servicenet/api";
import { formatRFC1123Z } from "../util/time.ts";
import { LEVEL_0, LEVEL_1, tabbedString } from "./prefix-writer.ts";
import { maybeDescribeEvents, printAnnotationsMultiline, printLabelsMultiline, type DescribeOptions } from "./common.ts";

/** describeServiceCIDRV1: CIDRs ", "-joined, then the conditions table when there are conditions. */
export function describeServiceCIDR(sc: ServiceCIDR, events?: readonly Event[], opts: DescribeOptions = {}): string {
  const meta = sc.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, `CIDRs:\t${(sc.spec?.cidrs ?? []).join(", ")}\n`);
    const conditions = sc.status?.conditions ?? [];
    if (conditions.length > 0) {
      w.write(LEVEL_0, "Status:\n");
      w.write(LEVEL_0, "Conditions:\n");
      w.write(LEVEL_1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n");
      w.write(LEVEL_1, "----\t------\t------------------\t------\t-------\n");
      for (const c of conditions) {
        const when = formatRFC1123Z(c.lastTransitionTime, opts.location);
        w.write(LEVEL_1, `${c.type ?? ""}\t${c.status ?? ""}\t${when}\t${c.reason ?? ""}\t${c.message ?? ""}\n`);
      }
    }
    maybeDescribeEvents(events, w, opts);
  });
}

/** describeIPAddressV1: the parent reference block when spec.parentRef is set. */
export function describeIPAddress(ip: IPAddress, events?: readonly Event[], opts: DescribeOptions = {}): string {
  const meta = ip.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    const ref = ip.spec?.parentRef;
    if (ref !== undefined && ref !== null) {
      w.write(LEVEL_0, "Parent Reference:\n");
      w.write(LEVEL_1, `Group:\t${ref.group ?? ""}\n`);
      w.write(LEVEL_1, `Resource:\t${ref.resource ?? ""}\n`);
      w.write(LEVEL_1, `Namespace:\t${ref.namespace ?? ""}\n`);
      w.write(LEVEL_1, `Name:\t${ref.name ?? ""}\n`);
    }
    maybeDescribeEvents(events, w, opts);
  });
}
