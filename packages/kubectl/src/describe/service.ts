/** `kubectl describe service` (describe.go describeService, EndpointSlice-based since 1.33). */
import type { EndpointSlice, Event, LoadBalancerIngress, Service } from "@servicenet/api";
import { formatLabels, joinHostPort } from "@servicenet/printers";
import { LEVEL_0, tabbedString } from "./prefix-writer.ts";
import { maybeDescribeEvents, printAnnotationsMultiline, printLabelsMultiline, type DescribeOptions } from "./common.ts";

/** buildIngressString: IP (with " (ipMode)") or hostname, ", "-joined. */
export function buildIngressString(ingress: readonly LoadBalancerIngress[]): string {
  return ingress
    .map((ing) => {
      if (ing.ip) return ing.ipMode ? `${ing.ip} (${ing.ipMode})` : ing.ip;
      return ing.hostname ?? "";
    })
    .join(", ");
}

/**
 * formatEndpointSlices, quirks included: the "more" flag is raised when a 4th
 * candidate is seen even if it is not ready, and an all-not-ready list prints
 * as the empty string rather than "<none>". `portNames` null means all ports.
 */
export function formatEndpointSlices(slices: readonly EndpointSlice[], portNames: ReadonlySet<string> | null): string {
  if (slices.length === 0) return "<none>";
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  const visit = (addr: string, ready: boolean | null | undefined, port?: number): void => {
    if (list.length === max) more = true;
    if (ready === false) return;
    if (!more) list.push(port === undefined ? addr : joinHostPort(addr, port));
    count++;
  };
  for (const slice of slices) {
    const endpoints = slice.endpoints ?? [];
    const ports = slice.ports ?? [];
    if (ports.length === 0) {
      for (const ep of endpoints) visit(ep.addresses?.[0] ?? "", ep.conditions?.ready);
      continue;
    }
    for (const port of ports) {
      if (portNames !== null && !portNames.has(port.name ?? "")) continue;
      for (const ep of endpoints) visit(ep.addresses?.[0] ?? "", ep.conditions?.ready, port.port ?? 0);
    }
  }
  const ret = list.join(",");
  return more ? `${ret} + ${count - max} more...` : ret;
}

/**
 * describeService: the text of `kubectl describe service`. `endpointSlices` are
 * the slices labelled kubernetes.io/service-name=<name>; `events` undefined
 * omits the Events section (as --show-events=false or a failed event search).
 */
export function describeService(
  service: Service,
  endpointSlices: readonly EndpointSlice[],
  events?: readonly Event[],
  opts: DescribeOptions = {},
): string {
  const meta = service.metadata ?? {};
  const spec = service.spec ?? {};
  const v134 = (opts.kubectlMinor ?? 33) >= 34;
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, `Selector:\t${formatLabels(spec.selector)}\n`);
    w.write(LEVEL_0, `Type:\t${spec.type ?? ""}\n`);
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
      w.write(LEVEL_0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
    }
    const families = spec.ipFamilies ?? [];
    w.write(LEVEL_0, `IP Families:\t${families.length > 0 ? families.join(",") : "<none>"}\n`);
    w.write(LEVEL_0, `IP:\t${spec.clusterIP ?? ""}\n`);
    const ips = spec.clusterIPs ?? [];
    w.write(LEVEL_0, `IPs:\t${ips.length > 0 ? ips.join(",") : "<none>"}\n`);
    if ((spec.externalIPs ?? []).length > 0) w.write(LEVEL_0, `External IPs:\t${(spec.externalIPs ?? []).join(",")}\n`);
    if (spec.loadBalancerIP) w.write(LEVEL_0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
    if (spec.externalName) w.write(LEVEL_0, `External Name:\t${spec.externalName}\n`);
    const ingress = service.status?.loadBalancer?.ingress ?? [];
    if (ingress.length > 0) w.write(LEVEL_0, `LoadBalancer Ingress:\t${buildIngressString(ingress)}\n`);
    for (const sp of spec.ports ?? []) {
      const name = sp.name ? sp.name : "<unset>";
      const proto = sp.protocol ?? "";
      w.write(LEVEL_0, `Port:\t${name}\t${sp.port ?? 0}/${proto}\n`);
      w.write(LEVEL_0, `TargetPort:\t${sp.targetPort ?? 0}/${proto}\n`);
      if (v134 && sp.appProtocol !== undefined && sp.appProtocol !== null) w.write(LEVEL_0, `AppProtocol:\t${sp.appProtocol}\n`);
      if (sp.nodePort) w.write(LEVEL_0, `NodePort:\t${name}\t${sp.nodePort}/${proto}\n`);
      w.write(LEVEL_0, `Endpoints:\t${formatEndpointSlices(endpointSlices, new Set([sp.name ?? ""]))}\n`);
    }
    w.write(LEVEL_0, `Session Affinity:\t${spec.sessionAffinity ?? ""}\n`);
    if (spec.externalTrafficPolicy) w.write(LEVEL_0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
    if (spec.internalTrafficPolicy !== undefined && spec.internalTrafficPolicy !== null) {
      w.write(LEVEL_0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
    }
    if (spec.healthCheckNodePort) w.write(LEVEL_0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
    const ranges = spec.loadBalancerSourceRanges ?? [];
    if (ranges.length > 0) w.write(LEVEL_0, `LoadBalancer Source Ranges:\t${ranges.join(",")}\n`);
    if (v134 && spec.trafficDistribution !== undefined && spec.trafficDistribution !== null) {
      w.write(LEVEL_0, `Traffic Distribution:\t${spec.trafficDistribution}\n`);
    }
    maybeDescribeEvents(events, w, opts);
  });
}
