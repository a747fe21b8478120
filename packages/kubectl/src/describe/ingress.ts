/**
 * `kubectl describe ingress|ingressclass|networkpolicy` (kubectl/pkg/describe/describe.go
 * IngressDescriber.describeIngressV1, IngressClassDescriber.describeIngressClassV1,
 * describeNetworkPolicy), byte for byte with kubectl 1.33.
 */
import {
  labelSelectorString,
  type EndpointSlice,
  type Event,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type LabelSelector,
  type NetworkPolicy,
  type NetworkPolicyPort,
  type Service,
} from "@servicenet/api";
import { compareGo } from "@servicenet/printers";
import { formatGoTimeString } from "../util/time.ts";
import { maybeDescribeEvents, printAnnotationsMultiline, printLabelsMultiline, type DescribeOptions } from "./common.ts";
import { LEVEL_0, LEVEL_1, LEVEL_2, tabbedString, type PrefixWriter } from "./prefix-writer.ts";
import { formatEndpointSlices } from "./service.ts";

/** What describeBackendV1 read for one Service: its EndpointSlices and itself, or the first error's text. */
export type BackendService = { service: Service; slices: readonly EndpointSlice[] } | { error: string };

/** serviceBackendStringer: "name:number" or "name:portName". */
function serviceBackendString(b: NonNullable<IngressBackend["service"]>): string {
  const number = b.port?.number ?? 0;
  return `${b.name}:${number !== 0 ? String(number) : (b.port?.name ?? "")}`;
}

/** describeBackendV1: a Service with its endpoints (or the error), a resource, or "". */
function describeBackend(b: IngressBackend, services: ReadonlyMap<string, BackendService>): string {
  if (b.service !== undefined) {
    const sb = serviceBackendString(b.service);
    const got = services.get(b.service.name);
    if (got === undefined || "error" in got) return `${sb} (<error: ${got?.error ?? ""}>)`;
    let spName = "";
    const number = b.service.port?.number ?? 0;
    const portName = b.service.port?.name ?? "";
    for (const sp of got.service.spec?.ports ?? []) {
      if (number !== 0 && number === sp.port) spName = sp.name ?? "";
      else if (portName.length > 0 && portName === sp.name) spName = sp.name;
    }
    return `${sb} (${formatEndpointSlices(got.slices, new Set([spName]))})`;
  }
  if (b.resource !== undefined) {
    return `APIGroup: ${b.resource.apiGroup ?? "<none>"}, Kind: ${b.resource.kind}, Name: ${b.resource.name}`;
  }
  return "";
}

/** The Service names an Ingress' backends name, for the caller to read. */
export function ingressBackendServices(ing: Ingress): string[] {
  const names = new Set<string>();
  const add = (b: IngressBackend | undefined) => {
    if (b?.service !== undefined) names.add(b.service.name);
  };
  add(ing.spec?.defaultBackend);
  for (const r of ing.spec?.rules ?? []) for (const p of r.http?.paths ?? []) add(p.backend);
  return [...names];
}

/** ingressLoadBalancerStatusStringerV1 with wide: sorted unique IPs (else hostnames), ","-joined. */
function ingressAddress(ing: Ingress): string {
  const set = new Set<string>();
  for (const p of ing.status?.loadBalancer?.ingress ?? []) {
    if (p.ip) set.add(p.ip);
    else if (p.hostname) set.add(p.hostname);
  }
  return [...set].sort(compareGo).join(",");
}

/** describeIngressV1: the header, default backend, TLS, the rules table, annotations, events. */
export function describeIngress(
  ing: Ingress,
  services: ReadonlyMap<string, BackendService>,
  events?: readonly Event[],
  opts: DescribeOptions = {},
): string {
  const meta = ing.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ""}\n`);
    w.write(LEVEL_0, `Address:\t${ingressAddress(ing)}\n`);
    w.write(LEVEL_0, `Ingress Class:\t${ing.spec?.ingressClassName ?? "<none>"}\n`);
    const def = ing.spec?.defaultBackend;
    const defaultBackend = def === undefined ? "<default>" : describeBackend(def, services);
    w.write(LEVEL_0, `Default backend:\t${defaultBackend}\n`);
    const tls = ing.spec?.tls ?? [];
    if (tls.length !== 0) {
      w.write(LEVEL_0, "TLS:\n");
      for (const t of tls) {
        const hosts = (t.hosts ?? []).join(",");
        w.write(LEVEL_1, t.secretName ? `${t.secretName} terminates ${hosts}\n` : `SNI routes ${hosts}\n`);
      }
    }
    w.write(LEVEL_0, "Rules:\n  Host\tPath\tBackends\n");
    w.write(LEVEL_1, "----\t----\t--------\n");
    let count = 0;
    for (const rule of ing.spec?.rules ?? []) {
      if (rule.http === undefined) continue;
      count++;
      w.write(LEVEL_1, `${rule.host || "*"}\t\n`);
      for (const p of rule.http.paths ?? []) w.write(LEVEL_2, `\t${p.path ?? ""} \t${describeBackend(p.backend, services)}\n`);
    }
    if (count === 0) w.write(LEVEL_1, `*\t*\t${defaultBackend}\n`);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    maybeDescribeEvents(events, w, opts);
  });
}

/** describeIngressClassV1: controller, then the parameters reference when set. */
export function describeIngressClass(ic: IngressClass, events?: readonly Event[], opts: DescribeOptions = {}): string {
  const meta = ic.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    w.write(LEVEL_0, `Controller:\t${ic.spec?.controller ?? ""}\n`);
    const p = ic.spec?.parameters;
    if (p !== undefined) {
      w.write(LEVEL_0, "Parameters:\n");
      if (p.apiGroup !== undefined) w.write(LEVEL_1, `APIGroup:\t${p.apiGroup}\n`);
      w.write(LEVEL_1, `Kind:\t${p.kind}\n`);
      w.write(LEVEL_1, `Name:\t${p.name}\n`);
    }
    maybeDescribeEvents(events, w, opts);
  });
}

/** metav1.FormatLabelSelector: the selector string, "<none>" when it selects everything. */
function formatLabelSelector(s: LabelSelector): string {
  return labelSelectorString(s) || "<none>";
}

/** describeNetworkPolicy: the header, "Created on" as time.Time.String, and the spec's long form (no events). */
export function describeNetworkPolicy(np: NetworkPolicy, opts: DescribeOptions = {}): string {
  const meta = np.metadata ?? {};
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${meta.name ?? ""}\n`);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ""}\n`);
    w.write(LEVEL_0, `Created on:\t${formatGoTimeString(meta.creationTimestamp, opts.location)}\n`);
    printLabelsMultiline(w, "Labels", meta.labels);
    printAnnotationsMultiline(w, "Annotations", meta.annotations);
    describeNetworkPolicySpec(np, w);
  });
}

function describeNetworkPolicySpec(np: NetworkPolicy, w: PrefixWriter): void {
  const spec = np.spec;
  w.write(LEVEL_0, "Spec:\n");
  w.write(LEVEL_1, "PodSelector: ");
  const sel = spec.podSelector;
  if (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0) {
    w.write(LEVEL_2, "<none> (Allowing the specific traffic to all pods in this namespace)\n");
  } else {
    w.write(LEVEL_2, `${formatLabelSelector(sel)}\n`);
  }
  const types = spec.policyTypes ?? [];
  if (types.includes("Ingress")) {
    w.write(LEVEL_1, "Allowing ingress traffic:\n");
    printRules(spec.ingress?.map((r) => ({ ports: r.ports, peers: r.from })) ?? [], "From", "source", "ingress", w);
  } else {
    w.write(LEVEL_1, "Not affecting ingress traffic\n");
  }
  if (types.includes("Egress")) {
    w.write(LEVEL_1, "Allowing egress traffic:\n");
    printRules(spec.egress?.map((r) => ({ ports: r.ports, peers: r.to })) ?? [], "To", "destination", "egress", w);
  } else {
    w.write(LEVEL_1, "Not affecting egress traffic\n");
  }
  w.write(LEVEL_1, `Policy Types: ${types.length > 0 ? types.join(", ") : "<none>"}\n`);
}

/** IntOrString's String() through fmt's %s: a nil pointer prints "<nil>". */
function portString(p: NetworkPolicyPort): string {
  return p.port === undefined ? "<nil>" : String(p.port);
}

type Rule = { ports: NetworkPolicyPort[] | undefined; peers: NonNullable<NetworkPolicy["spec"]["ingress"]>[number]["from"] };

/** printNetworkPolicySpecIngressFrom / printNetworkPolicySpecEgressTo, with their four-space indent. */
function printRules(rules: Rule[], peer: "From" | "To", what: string, direction: string, w: PrefixWriter): void {
  const indent = "    ";
  if (rules.length === 0) {
    w.write(LEVEL_0, `${indent}<none> (Selected pods are isolated for ${direction} connectivity)\n`);
    return;
  }
  rules.forEach((r, i) => {
    const ports = r.ports ?? [];
    if (ports.length === 0) w.write(LEVEL_0, `${indent}To Port: <any> (traffic allowed to all ports)\n`);
    for (const p of ports) {
      const proto = p.protocol ?? "TCP";
      if (p.endPort === undefined) w.write(LEVEL_0, `${indent}To Port: ${portString(p)}/${proto}\n`);
      else w.write(LEVEL_0, `${indent}To Port Range: ${portString(p)}-${p.endPort}/${proto}\n`);
    }
    const peers = r.peers ?? [];
    if (peers.length === 0) w.write(LEVEL_0, `${indent}${peer}: <any> (traffic not restricted by ${what})\n`);
    for (const x of peers) {
      w.write(LEVEL_0, `${indent}${peer}:\n`);
      if (x.podSelector !== undefined && x.namespaceSelector !== undefined) {
        w.write(LEVEL_1, `${indent}NamespaceSelector: ${formatLabelSelector(x.namespaceSelector)}\n`);
        w.write(LEVEL_1, `${indent}PodSelector: ${formatLabelSelector(x.podSelector)}\n`);
      } else if (x.podSelector !== undefined) {
        w.write(LEVEL_1, `${indent}PodSelector: ${formatLabelSelector(x.podSelector)}\n`);
      } else if (x.namespaceSelector !== undefined) {
        w.write(LEVEL_1, `${indent}NamespaceSelector: ${formatLabelSelector(x.namespaceSelector)}\n`);
      } else if (x.ipBlock !== undefined) {
        w.write(LEVEL_1, `${indent}IPBlock:\n`);
        w.write(LEVEL_2, `${indent}CIDR: ${x.ipBlock.cidr}\n`);
        w.write(LEVEL_2, `${indent}Except: ${(x.ipBlock.except ?? []).join(", ")}\n`);
      }
    }
    if (i !== rules.length - 1) w.write(LEVEL_0, `${indent}----------\n`);
  });
}
