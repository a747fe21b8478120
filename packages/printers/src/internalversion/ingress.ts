/** Ingress, IngressClass and NetworkPolicy tables (printers.go printIngress, printIngressClass, printNetworkPolicy). */
import {
  labelSelectorString,
  type Ingress,
  type IngressClass,
  type IngressRule,
  type IngressTLS,
  type NetworkPolicy,
  type Table,
} from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { loadBalancerStatusStringer } from "./service.ts";
import { translateTimestampSince } from "./time.ts";

/** formatHosts: the first three hosts, "+ N more..." after them (N counts rules, as upstream), "*" for none. */
export function formatHosts(rules: readonly IngressRule[]): string {
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    if (!more && rule.host) list.push(rule.host);
  }
  if (list.length === 0) return "*";
  const ret = list.join(",");
  return more ? `${ret} + ${rules.length - max} more...` : ret;
}

/** formatPorts: "80, 443" when the Ingress has TLS, "80" otherwise. */
export function formatPorts(tls: readonly IngressTLS[] | undefined): string {
  return (tls ?? []).length !== 0 ? "80, 443" : "80";
}

/** NAME CLASS HOSTS ADDRESS PORTS AGE. */
export const ingressHandler: TableHandler<Ingress> = {
  columnDefinitions: [
    nameColumn(),
    column("Class", "The name of the IngressClass resource that should be used for additional configuration"),
    column("Hosts", "Hosts that incoming requests are matched against before the ingress rule"),
    column("Address", "Address is a list containing ingress points for the load-balancer"),
    column("Ports", "Ports of TLS configurations that open"),
    ageColumn(),
  ],
  printRow: (ing, { now, wide }) => [
    ing.metadata?.name ?? "",
    ing.spec?.ingressClassName ?? "<none>",
    formatHosts(ing.spec?.rules ?? []),
    // ingressLoadBalancerStatusStringer is loadBalancerStatusStringer over the Ingress' points.
    loadBalancerStatusStringer(
      (ing.status?.loadBalancer?.ingress ?? []).map((p) => ({ ip: p.ip, hostname: p.hostname })),
      wide,
    ),
    formatPorts(ing.spec?.tls),
    translateTimestampSince(ing.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for ingresses. */
export function printIngressTable(items: readonly Ingress[], opts: PrintOptions = {}): Table {
  return generateTable(ingressHandler, items, opts);
}

/** The PARAMETERS cell: kind[.apiGroup]/name, or "<none>". */
export function formatIngressClassParameters(ic: IngressClass): string {
  const p = ic.spec?.parameters;
  if (p === undefined) return "<none>";
  return `${p.kind}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ""}/${p.name}`;
}

/** NAME CONTROLLER PARAMETERS AGE. */
export const ingressClassHandler: TableHandler<IngressClass> = {
  columnDefinitions: [
    nameColumn(),
    column("Controller", "Controller that is responsible for handling this class"),
    column("Parameters", "A reference to a resource with additional parameters"),
    ageColumn(),
  ],
  printRow: (ic, { now }) => [
    ic.metadata?.name ?? "",
    ic.spec?.controller ?? "",
    formatIngressClassParameters(ic),
    translateTimestampSince(ic.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for ingressclasses. */
export function printIngressClassTable(items: readonly IngressClass[], opts: PrintOptions = {}): Table {
  return generateTable(ingressClassHandler, items, opts);
}

/** extensions/v1beta1 NetworkPolicySpec's podSelector doc, which upstream's column description quotes. */
const podSelectorDoc =
  "Selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.";

/** NAME POD-SELECTOR AGE; metav1.FormatLabelSelector prints an empty selector as "<none>". */
export const networkPolicyHandler: TableHandler<NetworkPolicy> = {
  columnDefinitions: [nameColumn(), column("Pod-Selector", podSelectorDoc), ageColumn()],
  printRow: (np, { now }) => [
    np.metadata?.name ?? "",
    labelSelectorString(np.spec?.podSelector) || "<none>",
    translateTimestampSince(np.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for networkpolicies. */
export function printNetworkPolicyTable(items: readonly NetworkPolicy[], opts: PrintOptions = {}): Table {
  return generateTable(networkPolicyHandler, items, opts);
}
