/**
 * The shapes kubectl reads, with Kubernetes' JSON field names. They are
 * structural and all-optional on purpose: objects decoded by @servicenet/api's
 * zod schemas, raw JSON from the server and @kubernetes/client-node objects
 * all fit, so the printers never depend on one decoder.
 */

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string> | null;
  annotations?: Record<string, string> | null;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  finalizers?: string[] | null;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string | null;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string | null;
}

export interface Service extends KubeObject {
  spec?: {
    type?: string;
    selector?: Record<string, string> | null;
    clusterIP?: string;
    clusterIPs?: string[] | null;
    ipFamilies?: string[] | null;
    ipFamilyPolicy?: string | null;
    externalIPs?: string[] | null;
    loadBalancerIP?: string;
    externalName?: string;
    ports?: ServicePort[] | null;
    sessionAffinity?: string;
    externalTrafficPolicy?: string;
    internalTrafficPolicy?: string | null;
    healthCheckNodePort?: number;
    loadBalancerSourceRanges?: string[] | null;
    trafficDistribution?: string | null;
  };
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] | null } };
}

export interface EndpointAddress {
  ip?: string;
  hostname?: string;
  nodeName?: string;
}

export interface Endpoints extends KubeObject {
  subsets?:
    | {
        addresses?: EndpointAddress[] | null;
        notReadyAddresses?: EndpointAddress[] | null;
        ports?: { name?: string; port?: number; protocol?: string }[] | null;
      }[]
    | null;
}

export interface EndpointSliceEndpoint {
  addresses?: string[];
  conditions?: { ready?: boolean | null; serving?: boolean | null; terminating?: boolean | null };
  hostname?: string | null;
  targetRef?: { kind?: string; name?: string; namespace?: string } | null;
  nodeName?: string | null;
  zone?: string | null;
}

export interface EndpointSlice extends KubeObject {
  addressType?: string;
  endpoints?: EndpointSliceEndpoint[] | null;
  ports?: { name?: string | null; protocol?: string | null; port?: number | null; appProtocol?: string | null }[] | null;
}

export interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface ServiceCIDR extends KubeObject {
  spec?: { cidrs?: string[] | null };
  status?: { conditions?: Condition[] | null };
}

export interface IPAddress extends KubeObject {
  spec?: { parentRef?: { group?: string; resource?: string; namespace?: string; name?: string } | null };
}

export interface Event extends KubeObject {
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string; fieldPath?: string };
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  count?: number;
  type?: string;
  series?: { count?: number; lastObservedTime?: string | null } | null;
  reportingComponent?: string;
}

export interface ContainerState {
  waiting?: { reason?: string } | null;
  running?: { startedAt?: string | null } | null;
  terminated?: { reason?: string; exitCode?: number; signal?: number; finishedAt?: string | null } | null;
}

export interface Pod extends KubeObject {
  spec?: { nodeName?: string; containers?: { name?: string }[]; readinessGates?: { conditionType?: string }[] | null };
  status?: {
    phase?: string;
    reason?: string;
    podIP?: string;
    podIPs?: { ip?: string }[] | null;
    nominatedNodeName?: string;
    conditions?: Condition[] | null;
    containerStatuses?:
      | { name?: string; ready?: boolean; restartCount?: number; state?: ContainerState; lastState?: ContainerState }[]
      | null;
  };
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean };
  status?: {
    conditions?: Condition[] | null;
    addresses?: { type?: string; address?: string }[] | null;
    nodeInfo?: { kubeletVersion?: string; osImage?: string; kernelVersion?: string; containerRuntimeVersion?: string };
  };
}

export interface Namespace extends KubeObject {
  status?: { phase?: string };
}
