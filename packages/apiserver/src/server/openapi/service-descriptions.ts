/**
 * Field documentation kube-apiserver publishes for Service (from the doc
 * comments of k8s.io/api/core/v1 types.go, as its OpenAPI generator renders
 * them, "Possible enum values" included), so that `kubectl explain` prints
 * the same text. Used when the zod schema carries no description.
 */

/** A documented field: text and, for string enums, the values upstream lists. */
export interface FieldDoc {
  description: string;
  enum?: readonly string[];
  /** Listed as required although the zod schema defaults it (Go's non-omitempty fields). */
  required?: boolean;
}

const conv = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
const svcDoc = "https://kubernetes.io/docs/concepts/services-networking/service/";

function withEnum(text: string, values: Record<string, string>): FieldDoc {
  const keys = Object.keys(values).sort();
  const lines = keys.map((k) => ` - \`"${k}"\` ${values[k]}`);
  return { description: `${text}\n\nPossible enum values:\n${lines.join("\n")}`, enum: keys };
}

/** metav1.TypeMeta's two fields, inlined into every kind and list. */
export const typeMetaDocs: Readonly<Record<"apiVersion" | "kind", FieldDoc>> = {
  apiVersion: {
    description: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${conv}#resources`,
  },
  kind: {
    description: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${conv}#types-kinds`,
  },
};

const trafficPolicy = { Cluster: "routes traffic to all endpoints." };

export const serviceDocs: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>> = {
  "io.k8s.api.core.v1.Service": {
    "": {
      description:
        "Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.",
    },
    ...typeMetaDocs,
    metadata: { description: `Standard object's metadata. More info: ${conv}#metadata` },
    spec: { description: `Spec defines the behavior of a service. ${conv}#spec-and-status` },
    status: {
      description: `Most recently observed status of the service. Populated by the system. Read-only. More info: ${conv}#spec-and-status`,
    },
  },
  "io.k8s.api.core.v1.ServiceSpec": {
    "": { description: "ServiceSpec describes the attributes that a user creates on a service." },
    ports: { description: `The list of ports that are exposed by this service. More info: ${svcDoc}#virtual-ips-and-service-proxies` },
    selector: {
      description: `Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: ${svcDoc}`,
    },
    clusterIP: {
      description: `clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: ${svcDoc}#virtual-ips-and-service-proxies`,
    },
    clusterIPs: {
      description: `ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.  If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be empty) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address.  Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName.  If this field is not specified, it will be initialized from the clusterIP field.  If this field is specified, clients must ensure that clusterIPs[0] and clusterIP have the same value.\n\nThis field may hold a maximum of two entries (dual-stack IPs, in either order). These IPs must correspond to the values of the ipFamilies field. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field. More info: ${svcDoc}#virtual-ips-and-service-proxies`,
    },
    type: withEnum(
      `type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: ${svcDoc}#publishing-services-service-types`,
      {
        ClusterIP: "means a service will only be accessible inside the cluster, via the cluster IP.",
        ExternalName:
          "means a service consists of only a reference to an external name that kubedns or equivalent will return as a CNAME record, with no exposing or proxying of any pods involved.",
        LoadBalancer:
          "means a service will be exposed via an external load balancer (if the cloud provider supports it), in addition to 'NodePort' type.",
        NodePort: "means a service will be exposed on one port of every node, in addition to 'ClusterIP' type.",
      },
    ),
    externalIPs: {
      description:
        "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
    },
    sessionAffinity: withEnum(
      `Supports "ClientIP" and "None". Used to maintain session affinity. Enable client IP based session affinity. Must be ClientIP or None. Defaults to None. More info: ${svcDoc}#virtual-ips-and-service-proxies`,
      {
        ClientIP: "is the Client IP based.",
        None: "- no session affinity.",
      },
    ),
    loadBalancerIP: {
      description:
        "Only applies to Service Type: LoadBalancer. This feature depends on whether the underlying cloud-provider supports specifying the loadBalancerIP when a load balancer is created. This field will be ignored if the cloud-provider does not support the feature. Deprecated: This field was under-specified and its meaning varies across implementations. Using it is non-portable and it may not support dual-stack. Users are encouraged to use implementation-specific annotations when available.",
    },
    loadBalancerSourceRanges: {
      description:
        'If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs. This field will be ignored if the cloud-provider does not support the feature." More info: https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/',
    },
    externalName: {
      description:
        'externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record). No proxying will be involved.  Must be a lowercase RFC-1123 hostname (https://tools.ietf.org/html/rfc1123) and requires `type` to be "ExternalName".',
    },
    externalTrafficPolicy: withEnum(
      `externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service's "externally-facing" addresses (NodePorts, ExternalIPs, and LoadBalancer IPs). If set to "Local", the proxy will configure the service in a way that assumes that external load balancers will take care of balancing the service traffic between nodes, and so each node will deliver traffic only to the node-local endpoints of the service, without masquerading the client source IP. (Traffic mistakenly sent to a node with no endpoints will be dropped.) The default value, "Cluster", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features). Note that traffic sent to an External IP or LoadBalancer IP from within the cluster will always get "Cluster" semantics, but clients sending to a NodePort from within the cluster may need to take traffic policy into account when picking a node.`,
      {
        ...trafficPolicy,
        Local:
          "preserves the source IP of the traffic by routing only to endpoints on the same node as the traffic was received on (dropping the traffic if there are no local endpoints).",
      },
    ),
    sessionAffinityConfig: { description: "sessionAffinityConfig contains the configurations of session affinity." },
    loadBalancerClass: {
      description:
        "loadBalancerClass is the class of the load balancer implementation this Service belongs to. If specified, the value of this field must be a label-style identifier, with an optional prefix, e.g. \"internal-vip\" or \"example.com/internal-vip\". Unprefixed names are reserved for end-users. This field can only be set when the Service type is 'LoadBalancer'. If not set, the default load balancer implementation is used, today this is typically done through the cloud provider integration, but should apply for any default implementation. If set, it is assumed that a load balancer implementation is watching for Services with a matching class. Any default load balancer implementation (e.g. cloud providers) should ignore Services that set this field. This field can only be set when creating or updating a Service to type 'LoadBalancer'. Once set, it can not be changed. This field will be wiped when a service is updated to a non 'LoadBalancer' type.",
    },
    internalTrafficPolicy: withEnum(
      `InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP. If set to "Local", the proxy will assume that pods only want to talk to endpoints of the service on the same node as the pod, dropping the traffic if there are no local endpoints. The default value, "Cluster", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features).`,
      {
        ...trafficPolicy,
        Local:
          "routes traffic only to endpoints on the same node as the client pod (dropping the traffic if there are no local endpoints).",
      },
    ),
    ipFamilies: {
      description:
        'IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service. This field is usually assigned automatically based on cluster configuration and the ipFamilyPolicy field. If this field is specified manually, the requested family is available in the cluster, and ipFamilyPolicy allows it, it will be used; otherwise creation of the service will fail. This field is conditionally mutable: it allows for adding or removing a secondary IP family, but it does not allow changing the primary IP family of the Service. Valid values are "IPv4" and "IPv6".  This field only applies to Services of types ClusterIP, NodePort, and LoadBalancer, and does apply to "headless" services. This field will be wiped when updating a Service to type ExternalName.\n\nThis field may hold a maximum of two entries (dual-stack families, in either order).  These families must correspond to the values of the clusterIPs field, if specified. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field.',
    },
    ipFamilyPolicy: withEnum(
      'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service. If there is no value provided, then this field will be set to SingleStack. Services can be "SingleStack" (a single IP family), "PreferDualStack" (two IP families on dual-stack configured clusters or a single IP family on single-stack clusters), or "RequireDualStack" (two IP families on dual-stack configured clusters, otherwise fail). The ipFamilies and clusterIPs fields depend on the value of this field. This field will be wiped when updating a service to type ExternalName.',
      {
        PreferDualStack:
          "indicates that this service prefers dual-stack when the cluster is configured for dual-stack. If the cluster is not configured for dual-stack the service will be assigned a single IPFamily. If the IPFamily is not set in service.spec.ipFamilies then the service will be assigned the default IPFamily configured on the cluster",
        RequireDualStack:
          "indicates that this service requires dual-stack. Using IPFamilyPolicyRequireDualStack on a single stack cluster will result in validation errors. The IPFamilies (and their order) assigned to this service is based on service.spec.ipFamilies. If service.spec.ipFamilies was not provided then it will be assigned according to how they are configured on the cluster. If service.spec.ipFamilies has only one entry then the alternative IPFamily will be added by apiserver",
        SingleStack:
          "indicates that this service is required to have a single IPFamily. The IPFamily assigned is based on the default IPFamily used by the cluster or as identified by service.spec.ipFamilies field",
      },
    ),
    allocateLoadBalancerNodePorts: {
      description:
        'allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer.  Default is "true". It may be set to "false" if the cluster load-balancer does not rely on NodePorts.  If the caller requests specific NodePorts (by specifying a value), those requests will be respected, regardless of this field. This field may only be set for services with type LoadBalancer and will be cleared if the type is changed to any other type.',
    },
    healthCheckNodePort: {
      description:
        "healthCheckNodePort specifies the healthcheck nodePort for the service. This only applies when type is set to LoadBalancer and externalTrafficPolicy is set to Local. If a value is specified, is in-range, and is not in use, it will be used.  If not specified, a value will be automatically allocated.  External systems (e.g. load-balancers) can use this port to determine if a given node holds endpoints for this service or not.  If this field is specified when creating a Service which does not need it, creation will fail. This field will be wiped when updating a Service to no longer need it (e.g. changing type). This field cannot be updated once set.",
    },
    publishNotReadyAddresses: {
      description:
        'publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready. The primary use case for setting this field is for a StatefulSet\'s Headless Service to propagate SRV DNS records for its Pods for the purpose of peer discovery. The Kubernetes controllers that generate Endpoints and EndpointSlice resources for Services interpret this to mean that all endpoints are considered "ready" even if the Pods themselves are not. Agents which consume only Kubernetes generated endpoints through the Endpoints or EndpointSlice resources can safely assume this behavior.',
    },
    trafficDistribution: {
      description:
        'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints. Implementations can use this field as a hint, but are not required to guarantee strict adherence. If the field is not set, the implementation will apply its default routing strategy. If set to "PreferClose", implementations should prioritize endpoints that are in the same zone.',
    },
  },
  "io.k8s.api.core.v1.ServicePort": {
    "": { description: "ServicePort contains information on service's port." },
    name: {
      description:
        "The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names. When considering the endpoints for a Service, this must match the 'name' field in the EndpointPort. Optional if only one ServicePort is defined on this service.",
    },
    port: { description: "The port that will be exposed by this service." },
    protocol: withEnum('The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.', {
      SCTP: "is the SCTP protocol.",
      TCP: "is the TCP protocol.",
      UDP: "is the UDP protocol.",
    }),
    targetPort: {
      description: `Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map). This field is ignored for services with clusterIP=None, and should be omitted or set equal to the 'port' field. More info: ${svcDoc}#defining-a-service`,
    },
    nodePort: {
      description:
        "The port on each node on which this service is exposed when type is NodePort or LoadBalancer.  Usually assigned by the system. If a value is specified, in-range, and not in use it will be used, otherwise the operation will fail.  If not specified, a port will be allocated if this Service requires one.  If this field is specified when creating a Service which does not need it, creation will fail. This field will be wiped when updating a Service to no longer need it (e.g. changing type from NodePort to ClusterIP). More info: https://kubernetes.io/docs/concepts/services-networking/service/#type-nodeport",
    },
    appProtocol: {
      description:
        "The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand. This field follows standard Kubernetes label syntax.",
    },
  },
  "io.k8s.api.core.v1.ServiceStatus": {
    "": { description: "ServiceStatus represents the current status of a service." },
    conditions: { description: "Current service state" },
    loadBalancer: { description: "LoadBalancer contains the current status of the load-balancer, if one is present." },
  },
};
