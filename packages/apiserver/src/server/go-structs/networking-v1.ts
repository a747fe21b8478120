/** networking/v1 as k8s.io/api/networking/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const networkingV1: GoStructs = {
  IPAddress: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1.IPAddressSpec,omitempty",
  },
  IPAddressSpec: { parentRef: "*networking/v1.ParentReference,omitempty" },
  ParentReference: { group: "string,omitempty", resource: "string,omitempty", namespace: "string,omitempty", name: "string,omitempty" },
  ServiceCIDR: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1.ServiceCIDRSpec,omitempty",
    status: "networking/v1.ServiceCIDRStatus,omitempty",
  },
  ServiceCIDRSpec: { cidrs: "[]string,omitempty" },
  ServiceCIDRStatus: { conditions: "[]meta/v1.Condition,omitempty" },
  // Ingress, IngressClass and NetworkPolicy (k8s.io/api/networking/v1 types.go, v1.33).
  Ingress: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1.IngressSpec,omitempty",
    status: "networking/v1.IngressStatus,omitempty",
  },
  IngressSpec: {
    ingressClassName: "*string,omitempty",
    defaultBackend: "*networking/v1.IngressBackend,omitempty",
    tls: "[]networking/v1.IngressTLS,omitempty",
    rules: "[]networking/v1.IngressRule,omitempty",
  },
  IngressTLS: { hosts: "[]string,omitempty", secretName: "string,omitempty" },
  IngressStatus: { loadBalancer: "networking/v1.IngressLoadBalancerStatus,omitempty" },
  IngressLoadBalancerStatus: { ingress: "[]networking/v1.IngressLoadBalancerIngress,omitempty" },
  IngressLoadBalancerIngress: {
    ip: "string,omitempty",
    hostname: "string,omitempty",
    ports: "[]networking/v1.IngressPortStatus,omitempty",
  },
  IngressPortStatus: { port: "int32", protocol: "string", error: "*string,omitempty" },
  // IngressRuleValue is inlined (`json:",inline"`): its one field sits beside host.
  IngressRule: { host: "string,omitempty", http: "*networking/v1.HTTPIngressRuleValue,omitempty" },
  HTTPIngressRuleValue: { paths: "[]networking/v1.HTTPIngressPath" },
  HTTPIngressPath: { path: "string,omitempty", pathType: "*string", backend: "networking/v1.IngressBackend" },
  IngressBackend: {
    service: "*networking/v1.IngressServiceBackend,omitempty",
    resource: "*core/v1.TypedLocalObjectReference,omitempty",
  },
  IngressServiceBackend: { name: "string", port: "networking/v1.ServiceBackendPort,omitempty" },
  ServiceBackendPort: { name: "string,omitempty", number: "int32,omitempty" },
  IngressClass: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1.IngressClassSpec,omitempty",
  },
  IngressClassSpec: { controller: "string,omitempty", parameters: "*networking/v1.IngressClassParametersReference,omitempty" },
  IngressClassParametersReference: {
    apiGroup: "*string,omitempty",
    kind: "string",
    name: "string",
    scope: "*string",
    namespace: "*string,omitempty",
  },
  NetworkPolicy: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1.NetworkPolicySpec,omitempty",
  },
  NetworkPolicySpec: {
    podSelector: "meta/v1.LabelSelector",
    ingress: "[]networking/v1.NetworkPolicyIngressRule,omitempty",
    egress: "[]networking/v1.NetworkPolicyEgressRule,omitempty",
    policyTypes: "[]string,omitempty",
  },
  NetworkPolicyIngressRule: { ports: "[]networking/v1.NetworkPolicyPort,omitempty", from: "[]networking/v1.NetworkPolicyPeer,omitempty" },
  NetworkPolicyEgressRule: { ports: "[]networking/v1.NetworkPolicyPort,omitempty", to: "[]networking/v1.NetworkPolicyPeer,omitempty" },
  NetworkPolicyPort: { protocol: "*string,omitempty", port: "*intstr.IntOrString,omitempty", endPort: "*int32,omitempty" },
  NetworkPolicyPeer: {
    podSelector: "*meta/v1.LabelSelector,omitempty",
    namespaceSelector: "*meta/v1.LabelSelector,omitempty",
    ipBlock: "*networking/v1.IPBlock,omitempty",
  },
  IPBlock: { cidr: "string", except: "[]string,omitempty" },
};
