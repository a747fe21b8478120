/** Command-line options of servicenet-controller-manager (a subset of kube-controller-manager's). */
import { clientConnectionFlag, commonFlag, int32Flag, scanFlags, UsageError } from "@servicenet/component-base/cli";
import { parseGoDuration } from "@servicenet/component-base/duration";
import type { NodeIpamOptions } from "./core.ts";
import { defaultNodeLifecycleConfig, type NodeLifecycleConfig } from "../controller/nodelifecycle/config.ts";
import { defaultServingOptions, parseServingFlag, servingUsage, validateServingOptions, type ServingOptions } from "./options-serving.ts";

export const knownControllers = [
  "endpoint",
  "endpointslice",
  "endpointslicemirroring",
  "namespace",
  "servicecidr",
  "garbagecollector",
  "clusterrole-aggregation",
  "nodeipam",
  "deployment",
  "replicaset",
  "statefulset",
  "daemonset",
  "serviceaccount",
  "node-lifecycle-controller",
  "taint-eviction-controller",
  "root-ca-certificate-publisher-controller",
  "disruption",
  "job-controller",
  "cronjob-controller",
  "ttl-after-finished-controller",
  "serviceaccount-token-controller",
] as const;
export type ControllerName = (typeof knownControllers)[number];

export interface Options {
  kubeconfig: string;
  leaderElect: boolean;
  controllers: ControllerName[];
  /** Lease namespace/name, as kube-controller-manager's --leader-elect-resource-*. */
  leaseNamespace: string;
  leaseName: string;
  /** --leader-elect-lease-duration / -renew-deadline / -retry-period, in ms (upstream defaults 15s/10s/2s). */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** Workers per controller (--concurrent-*-syncs). */
  workers: number;
  /** Garbage-collector workers (--concurrent-gc-syncs, upstream default 20). */
  gcWorkers: number;
  /** Deployment controller workers (--concurrent-deployment-syncs, upstream default 5). */
  deploymentWorkers: number;
  /** ReplicaSet workers (--concurrent-replicaset-syncs, upstream default 5). */
  replicaSetWorkers: number;
  /** Job controller workers (--concurrent-job-syncs, upstream default 5). */
  jobWorkers: number;
  /** StatefulSet workers (--concurrent-statefulset-syncs, upstream default 5). */
  statefulSetWorkers: number;
  /** DaemonSet workers (--concurrent-daemonset-syncs, upstream default 2). */
  daemonSetWorkers: number;
  /** klog's -v: log verbosity (V(n) lines are written when n <= v). */
  verbosity: number;
  /** --use-service-account-credentials: each controller with its own identity's credentials from the kubeconfig. */
  useServiceAccountCredentials: boolean;
  /** --root-ca-file: the CA bundle published as kube-root-ca.crt and written into token Secrets ("" = the kubeconfig cluster's CA). */
  rootCAFile: string;
  /** --service-account-private-key-file: signs the tokens of token Secrets; "" leaves the tokens controller off. */
  serviceAccountKeyFile: string;
  /** --concurrent-serviceaccount-token-syncs (upstream default 5). */
  serviceAccountTokenWorkers: number;
  /** --max-endpoints-per-slice (upstream default 100, 1..1000). */
  maxEndpointsPerSlice: number;
  /** --endpointslice-updates-batch-period in ms (default 0: every Pod change syncs at once). */
  endpointUpdatesBatchPeriodMs: number;
  /** --mirroring-max-endpoints-per-subset (upstream default 1000, 1..1000). */
  mirroringMaxEndpointsPerSubset: number;
  /** --mirroring-endpointslice-updates-batch-period in ms (default 0). */
  mirroringEndpointUpdatesBatchPeriodMs: number;
  /** --allocate-node-cidrs, --cluster-cidr, --service-cluster-ip-range and the node mask sizes. */
  nodeIpam: NodeIpamOptions;
  /** --node-monitor-period, --node-monitor-grace-period, --node-startup-grace-period and the eviction rates. */
  nodeLifecycle: NodeLifecycleConfig;
  /** --kube-api-qps and --kube-api-burst: each controller's client (upstream defaults 20 and 30). */
  kubeAPIQPS: number;
  kubeAPIBurst: number;
  /** --secure-port, --bind-address, TLS and delegated authentication/authorization of /healthz and /metrics. */
  serving: ServingOptions;
  help: boolean;
}

export { UsageError };

export const usage = `Usage: servicenet-controller-manager --kubeconfig PATH [--leader-elect] [--controllers endpoint,endpointslice,endpointslicemirroring,namespace,servicecidr,garbagecollector,clusterrole-aggregation]
  --kubeconfig PATH                 kubeconfig of the apiserver to talk to (required)
  --leader-elect                    elect a leader through a coordination.k8s.io/v1 Lease before running controllers
  --leader-elect-resource-namespace kube-system (default)
  --leader-elect-resource-name      kube-controller-manager (default)
  --leader-elect-lease-duration D   how long non-leaders wait after the last observed renewal before taking over (default 15s)
  --leader-elect-renew-deadline D   how long the leader retries renewing before giving up leadership (default 10s)
  --leader-elect-retry-period D     wait between acquire/renew attempts (default 2s)
  --use-service-account-credentials each controller runs as system:serviceaccount:kube-system:<controller>,
                                    with that user's credentials from the kubeconfig (else the main ones)
  --root-ca-file PATH               CA bundle published as ConfigMap kube-root-ca.crt in every namespace and
                                    written into token Secrets (default the kubeconfig cluster's certificate authority)
  --service-account-private-key-file PATH
                                    PEM RSA or ECDSA private key that signs the tokens of kubernetes.io/service-account-token
                                    Secrets (without it the serviceaccount-token-controller does not run)
  --concurrent-serviceaccount-token-syncs N
                                    token Secrets synced at once (default 5)
  --controllers LIST                comma-separated; default all: ${knownControllers.join(",")}
  --concurrent-syncs N              workers per controller (default 5)
  --concurrent-gc-syncs N           garbage collector workers (default 20)
  --concurrent-deployment-syncs N   deployment controller workers (default 5)
  --concurrent-replicaset-syncs N   ReplicaSets synced at once (default 5)
  --concurrent-job-syncs N          Jobs synced at once (default 5)
  --concurrent-statefulset-syncs N  StatefulSets synced at once (default 5)
  --concurrent-daemonset-syncs N    DaemonSets synced at once (default 2)
  --max-endpoints-per-slice N       endpoints per EndpointSlice (1-1000, default 100)
  --endpointslice-updates-batch-period D
                                    batch Pod changes this long before an EndpointSlice sync (default 0s)
  --mirroring-max-endpoints-per-subset N
                                    endpoints mirrored per Endpoints subset (1-1000, default 1000)
  --mirroring-endpointslice-updates-batch-period D
                                    batch Endpoints changes this long before a mirroring sync (default 0s)
  --allocate-node-cidrs             the nodeipam controller gives each Node its podCIDRs from --cluster-cidr
  --cluster-cidr LIST               CIDR range(s) of the Pods: one, or one per IP family (dual-stack)
  --service-cluster-ip-range LIST   Service range(s), kept out of the Pods' (at most two)
  --node-cidr-mask-size N           node block size, single-stack only (default 24 for IPv4, 64 for IPv6)
  --node-cidr-mask-size-ipv4 N      IPv4 node block size (default 24)
  --node-cidr-mask-size-ipv6 N      IPv6 node block size (default 64)
  --node-monitor-period D           how often the node lifecycle controller checks Node health (default 5s)
  --node-monitor-grace-period D     how long a running Node may be unresponsive before it is marked unhealthy (default 50s)
  --node-startup-grace-period D     the same for a starting Node (default 1m0s)
  --node-eviction-rate R            Nodes per second tainted for eviction in a healthy zone (default 0.1)
  --secondary-node-eviction-rate R  the same in an unhealthy zone of a large cluster (default 0.01)
  --large-cluster-size-threshold N  Nodes from which the cluster is large for eviction purposes (default 50)
  --unhealthy-zone-threshold F      not-Ready fraction (at least 3 Nodes) that makes a zone unhealthy (default 0.55)
  --kube-api-qps QPS                QPS to use while talking with kubernetes apiserver, per controller (default 20)
  --kube-api-burst N                Burst to use while talking with kubernetes apiserver, per controller (default 30)
${servingUsage}
  -v, --v N                         log verbosity, klog's levels (default 0)`;

/** Parses argv (without node and script); throws UsageError with a clear message. */
export function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    kubeconfig: "",
    leaderElect: false,
    controllers: [...knownControllers],
    leaseNamespace: "kube-system",
    leaseName: "kube-controller-manager",
    ...defaultLeaseTimings,
    workers: 5,
    gcWorkers: 20,
    deploymentWorkers: 5,
    replicaSetWorkers: 5,
    jobWorkers: 5,
    statefulSetWorkers: 5,
    daemonSetWorkers: 2,
    verbosity: 0,
    useServiceAccountCredentials: false,
    rootCAFile: "",
    serviceAccountKeyFile: "",
    serviceAccountTokenWorkers: 5,
    maxEndpointsPerSlice: 100,
    endpointUpdatesBatchPeriodMs: 0,
    mirroringMaxEndpointsPerSubset: 1000,
    mirroringEndpointUpdatesBatchPeriodMs: 0,
    nodeIpam: {
      allocateNodeCIDRs: false,
      clusterCIDR: "",
      serviceCIDR: "",
      nodeCIDRMaskSize: 0,
      nodeCIDRMaskSizeIPv4: 0,
      nodeCIDRMaskSizeIPv6: 0,
    },
    nodeLifecycle: { ...defaultNodeLifecycleConfig },
    kubeAPIQPS: 20,
    kubeAPIBurst: 30,
    serving: defaultServingOptions(),
    help: false,
  };
  scanFlags(argv, (f) => {
    if (commonFlag(o, f) || clientConnectionFlag(o, f)) return;
    const { name: flag, arg: raw, inline, value } = f;
    switch (flag) {
      case "--kubeconfig":
        o.kubeconfig = value();
        break;
      case "--use-service-account-credentials":
        o.useServiceAccountCredentials = inline ? value() !== "false" : true;
        break;
      case "--root-ca-file":
        o.rootCAFile = value();
        break;
      case "--service-account-private-key-file":
        o.serviceAccountKeyFile = value();
        break;
      case "--concurrent-serviceaccount-token-syncs":
        o.serviceAccountTokenWorkers = int32Flag(flag, value());
        break;
      case "--leader-elect":
        o.leaderElect = inline ? value() !== "false" : true;
        break;
      case "--leader-elect-resource-namespace":
        o.leaseNamespace = value();
        break;
      case "--leader-elect-resource-name":
        o.leaseName = value();
        break;
      case "--leader-elect-lease-duration":
        o.leaseDurationMs = durationFlag(flag, value());
        break;
      case "--leader-elect-renew-deadline":
        o.renewDeadlineMs = durationFlag(flag, value());
        break;
      case "--leader-elect-retry-period":
        o.retryPeriodMs = durationFlag(flag, value());
        break;
      case "--controllers":
        o.controllers = parseControllers(value());
        break;
      case "--concurrent-syncs": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--concurrent-syncs must be a positive integer`);
        o.workers = n;
        break;
      }
      case "--concurrent-gc-syncs": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--concurrent-gc-syncs must be a positive integer`);
        o.gcWorkers = n;
        break;
      }
      case "--concurrent-deployment-syncs": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--concurrent-deployment-syncs must be a positive integer`);
        o.deploymentWorkers = n;
        break;
      }
      case "--concurrent-replicaset-syncs":
        o.replicaSetWorkers = int32Flag(flag, value());
        break;
      case "--concurrent-job-syncs":
        o.jobWorkers = int32Flag(flag, value());
        break;
      case "--concurrent-statefulset-syncs":
        o.statefulSetWorkers = int32Flag(flag, value());
        break;
      case "--concurrent-daemonset-syncs":
        o.daemonSetWorkers = int32Flag(flag, value());
        break;
      case "--max-endpoints-per-slice":
        o.maxEndpointsPerSlice = int32Flag(flag, value());
        break;
      case "--endpointslice-updates-batch-period":
        o.endpointUpdatesBatchPeriodMs = durationFlag(flag, value());
        break;
      case "--mirroring-max-endpoints-per-subset":
        o.mirroringMaxEndpointsPerSubset = int32Flag(flag, value());
        break;
      case "--mirroring-endpointslice-updates-batch-period":
        o.mirroringEndpointUpdatesBatchPeriodMs = durationFlag(flag, value());
        break;
      case "--allocate-node-cidrs":
        o.nodeIpam.allocateNodeCIDRs = inline ? value() !== "false" : true;
        break;
      case "--cluster-cidr":
        o.nodeIpam.clusterCIDR = value();
        break;
      case "--service-cluster-ip-range":
        o.nodeIpam.serviceCIDR = value();
        break;
      case "--node-cidr-mask-size":
        o.nodeIpam.nodeCIDRMaskSize = int32Flag(flag, value());
        break;
      case "--node-cidr-mask-size-ipv4":
        o.nodeIpam.nodeCIDRMaskSizeIPv4 = int32Flag(flag, value());
        break;
      case "--node-cidr-mask-size-ipv6":
        o.nodeIpam.nodeCIDRMaskSizeIPv6 = int32Flag(flag, value());
        break;
      case "--node-monitor-period":
        o.nodeLifecycle.nodeMonitorPeriodMs = durationFlag(flag, value());
        break;
      case "--node-monitor-grace-period":
        o.nodeLifecycle.nodeMonitorGracePeriodMs = durationFlag(flag, value());
        break;
      case "--node-startup-grace-period":
        o.nodeLifecycle.nodeStartupGracePeriodMs = durationFlag(flag, value());
        break;
      case "--node-eviction-rate":
        o.nodeLifecycle.nodeEvictionRate = float32Flag(flag, value());
        break;
      case "--secondary-node-eviction-rate":
        o.nodeLifecycle.secondaryNodeEvictionRate = float32Flag(flag, value());
        break;
      case "--large-cluster-size-threshold":
        o.nodeLifecycle.largeClusterSizeThreshold = int32Flag(flag, value());
        break;
      case "--unhealthy-zone-threshold":
        o.nodeLifecycle.unhealthyZoneThreshold = float32Flag(flag, value());
        break;
      default:
        if (!parseServingFlag(o.serving, flag, value)) throw new UsageError(`unknown flag: ${raw}`);
    }
  });
  if (!o.help && o.kubeconfig === "") throw new UsageError("--kubeconfig is required");
  validateEndpointSliceOptions(o);
  validateServingOptions(o.serving);
  if (o.leaderElect) validateLeaseTimings(o);
  // NodeIPAMControllerOptions.Validate.
  if (o.nodeIpam.serviceCIDR.split(",").length > 2)
    throw new UsageError("--service-cluster-ip-range can not contain more than two entries");
  return o;
}

/**
 * cmd/kube-controller-manager/app/options: EndpointSliceControllerOptions and
 * EndpointSliceMirroringControllerOptions Validate (bounds 1..1000), upstream's messages.
 */
function validateEndpointSliceOptions(o: Options): void {
  const bound = (name: string, v: number) => {
    if (v < 1) throw new UsageError(`${name} must not be less than 1, but got ${v}`);
    if (v > 1000) throw new UsageError(`${name} must not be more than 1000, but got ${v}`);
  };
  bound("max-endpoints-per-slice", o.maxEndpointsPerSlice);
  bound("mirroring-max-endpoints-per-subset", o.mirroringMaxEndpointsPerSubset);
}

/** kube-controller-manager's defaults (LeaderElectionConfiguration). */
export const defaultLeaseTimings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

/** pflag's Float32Var: any number strconv.ParseFloat takes. */
function float32Flag(flag: string, v: string): number {
  const n = Number(v);
  if (v.trim() === "" || Number.isNaN(n))
    throw new UsageError(
      `invalid argument ${JSON.stringify(v)} for "${flag}" flag: strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`,
    );
  return n;
}

function durationFlag(flag: string, v: string): number {
  try {
    return parseGoDuration(v);
  } catch (err) {
    throw new UsageError(`invalid argument ${JSON.stringify(v)} for "${flag}" flag: ${(err as Error).message}`);
  }
}

// client-go's NewLeaderElector checks, made usage errors here. The Lease stores whole seconds
// (leaseDurationSeconds), so a lease under 1s would be written as 0: refused.
function validateLeaseTimings(o: Options): void {
  if (o.leaseDurationMs < 1000) throw new UsageError("--leader-elect-lease-duration must be at least 1s");
  if (o.renewDeadlineMs <= 0) throw new UsageError("renewDeadline must be greater than zero");
  if (o.retryPeriodMs <= 0) throw new UsageError("retryPeriod must be greater than zero");
  if (o.leaseDurationMs <= o.renewDeadlineMs) throw new UsageError("leaseDuration must be greater than renewDeadline");
  if (o.renewDeadlineMs <= 1.2 * o.retryPeriodMs) throw new UsageError("renewDeadline must be greater than retryPeriod*JitterFactor");
}

function parseControllers(list: string): ControllerName[] {
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  // kube-controller-manager accepts "*" for all.
  if (names.includes("*")) return [...knownControllers];
  for (const n of names)
    if (!(knownControllers as readonly string[]).includes(n))
      throw new UsageError(`unknown controller "${n}"; known: ${knownControllers.join(", ")}`);
  if (names.length === 0) throw new UsageError("--controllers is empty");
  return [...new Set(names)] as ControllerName[];
}
