import { describe, expect, it } from "vitest";
import { parseOptions } from "./options.ts";

describe("parseOptions", () => {
  it.each([
    [
      ["--kubeconfig", "k"],
      {
        kubeconfig: "k",
        leaderElect: false,
        controllers: [
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
        ],
        workers: 5,
        useServiceAccountCredentials: false,
      },
    ],
    [["--kubeconfig", "k", "--use-service-account-credentials"], { useServiceAccountCredentials: true }],
    [["--kubeconfig", "k", "--root-ca-file", "/etc/ca.crt"], { rootCAFile: "/etc/ca.crt" }],
    [
      ["--kubeconfig", "k", "--service-account-private-key-file", "/etc/sa.key", "--concurrent-serviceaccount-token-syncs=2"],
      { serviceAccountKeyFile: "/etc/sa.key", serviceAccountTokenWorkers: 2 },
    ],
    [["--kubeconfig", "k"], { serviceAccountKeyFile: "", serviceAccountTokenWorkers: 5 }],
    [["--kubeconfig", "k", "--use-service-account-credentials=false"], { useServiceAccountCredentials: false }],
    [
      ["--kubeconfig=k", "--leader-elect", "--controllers", "endpointslice,servicecidr"],
      { leaderElect: true, controllers: ["endpointslice", "servicecidr"] },
    ],
    [
      ["--kubeconfig", "k", "--leader-elect=false", "--controllers=*", "--concurrent-syncs", "2"],
      {
        leaderElect: false,
        controllers: [
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
        ],
        workers: 2,
        verbosity: 0,
      },
    ],
    [["--kubeconfig", "k", "-v", "4"], { verbosity: 4 }],
    [
      ["--kubeconfig", "k"],
      {
        nodeLifecycle: {
          nodeMonitorPeriodMs: 5000,
          nodeMonitorGracePeriodMs: 50_000,
          nodeStartupGracePeriodMs: 60_000,
          nodeEvictionRate: 0.1,
          secondaryNodeEvictionRate: 0.01,
          largeClusterSizeThreshold: 50,
          unhealthyZoneThreshold: 0.55,
        },
      },
    ],
    [
      ["--kubeconfig", "k", "--node-monitor-grace-period", "20s", "--node-monitor-period=1s", "--node-eviction-rate", "0.5"],
      { nodeLifecycle: expect.objectContaining({ nodeMonitorGracePeriodMs: 20_000, nodeMonitorPeriodMs: 1000, nodeEvictionRate: 0.5 }) },
    ],
    [["--kubeconfig", "k", "--concurrent-gc-syncs", "3"], { gcWorkers: 3, workers: 5 }],
    [["--kubeconfig", "k"], { gcWorkers: 20, deploymentWorkers: 5 }],
    [["--kubeconfig", "k", "--concurrent-deployment-syncs", "2"], { deploymentWorkers: 2, workers: 5 }],
    [["--kubeconfig", "k"], { replicaSetWorkers: 5 }],
    [["--kubeconfig", "k", "--concurrent-replicaset-syncs", "2"], { replicaSetWorkers: 2, workers: 5 }],
    [["--kubeconfig", "k", "--concurrent-job-syncs", "3"], { jobWorkers: 3, workers: 5 }],
    [["--kubeconfig", "k", "--concurrent-statefulset-syncs", "3"], { statefulSetWorkers: 3, workers: 5 }],
    [["--kubeconfig", "k", "--v=2"], { verbosity: 2 }],
    [
      ["--kubeconfig", "k", "--allocate-node-cidrs", "--cluster-cidr=10.244.0.0/16,fd00:10:244::/56", "--node-cidr-mask-size-ipv6", "64"],
      {
        nodeIpam: {
          allocateNodeCIDRs: true,
          clusterCIDR: "10.244.0.0/16,fd00:10:244::/56",
          serviceCIDR: "",
          nodeCIDRMaskSize: 0,
          nodeCIDRMaskSizeIPv4: 0,
          nodeCIDRMaskSizeIPv6: 64,
        },
      },
    ],
    [
      ["--kubeconfig", "k", "--service-cluster-ip-range", "10.96.0.0/12,fd00::/108"],
      { nodeIpam: { serviceCIDR: "10.96.0.0/12,fd00::/108" } },
    ],
    // GenericControllerManagerConfiguration's ClientConnection: 20 and 30 by default; no bound is checked upstream.
    [["--kubeconfig", "k"], { kubeAPIQPS: 20, kubeAPIBurst: 30 }],
    [["--kubeconfig", "k", "--kube-api-qps", "100.5", "--kube-api-burst=200"], { kubeAPIQPS: 100.5, kubeAPIBurst: 200 }],
    [["--kubeconfig", "k", "--kube-api-qps", "-1"], { kubeAPIQPS: -1 }],
  ])("%j", (argv, want) => {
    expect(parseOptions(argv)).toMatchObject(want);
  });

  it.each([
    [[], "--kubeconfig is required"],
    [["--kubeconfig"], "flag --kubeconfig needs a value"],
    [["--kubeconfig", "k", "--controllers", "endpoint,nope"], 'unknown controller "nope"'],
    [["--kubeconfig", "k", "--bogus"], "unknown flag: --bogus"],
    [
      ["--kubeconfig", "k", "--service-cluster-ip-range", "10.0.0.0/16,fd00::/108,10.1.0.0/16"],
      "--service-cluster-ip-range can not contain more than two entries",
    ],
    [
      ["--kubeconfig", "k", "--node-cidr-mask-size", "x"],
      'invalid argument "x" for "--node-cidr-mask-size" flag: strconv.ParseInt: parsing "x": invalid syntax',
    ],
    [
      ["--kubeconfig", "k", "--kube-api-qps", "fast"],
      'invalid argument "fast" for "--kube-api-qps" flag: strconv.ParseFloat: parsing "fast": invalid syntax',
    ],
    [
      ["--kubeconfig", "k", "--kube-api-burst", "1.5"],
      'invalid argument "1.5" for "--kube-api-burst" flag: strconv.ParseInt: parsing "1.5": invalid syntax',
    ],
    [["--kubeconfig", "k", "--concurrent-syncs", "0"], "--concurrent-syncs must be a positive integer"],
    [["--kubeconfig", "k", "--v", "high"], 'invalid argument "high" for "-v, --v" flag'],
  ])("%j is a usage error", (argv, msg) => {
    expect(() => parseOptions(argv)).toThrow(msg);
  });
});

describe("leader-election timing flags", () => {
  it.each([
    [["--kubeconfig", "k"], { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }],
    [
      [
        "--kubeconfig",
        "k",
        "--leader-elect",
        "--leader-elect-lease-duration=3s",
        "--leader-elect-renew-deadline",
        "2s",
        "--leader-elect-retry-period",
        "500ms",
      ],
      { leaderElect: true, leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 },
    ],
    [["--kubeconfig", "k", "--leader-elect", "--leader-elect-lease-duration", "1m30s"], { leaseDurationMs: 90_000 }],
    // Without --leader-elect the timings are not checked against each other (upstream ignores them then).
    [["--kubeconfig", "k", "--leader-elect-renew-deadline", "1h"], { leaderElect: false, renewDeadlineMs: 3_600_000 }],
  ])("%j", (argv, want) => {
    expect(parseOptions(argv)).toMatchObject(want);
  });

  it.each([
    [
      ["--leader-elect-lease-duration", "15"],
      'invalid argument "15" for "--leader-elect-lease-duration" flag: time: invalid duration "15"',
    ],
    [["--leader-elect-retry-period", "2x"], 'time: invalid duration "2x"'],
    [["--leader-elect-lease-duration", "10s"], "leaseDuration must be greater than renewDeadline"],
    [["--leader-elect-renew-deadline", "2s"], "renewDeadline must be greater than retryPeriod*JitterFactor"],
    [["--leader-elect-retry-period", "0"], "retryPeriod must be greater than zero"],
    [
      ["--leader-elect-lease-duration", "900ms", "--leader-elect-renew-deadline", "500ms", "--leader-elect-retry-period", "100ms"],
      "--leader-elect-lease-duration must be at least 1s",
    ],
  ])("%j is a usage error with --leader-elect", (flags, msg) => {
    expect(() => parseOptions(["--kubeconfig", "k", "--leader-elect", ...flags])).toThrow(msg);
  });
});

describe("EndpointSlice flags (EndpointSliceControllerOptions / EndpointSliceMirroringControllerOptions)", () => {
  it.each([
    [
      [],
      {
        maxEndpointsPerSlice: 100,
        endpointUpdatesBatchPeriodMs: 0,
        mirroringMaxEndpointsPerSubset: 1000,
        mirroringEndpointUpdatesBatchPeriodMs: 0,
      },
    ],
    [
      [
        "--max-endpoints-per-slice",
        "50",
        "--endpointslice-updates-batch-period=1s",
        "--mirroring-max-endpoints-per-subset=500",
        "--mirroring-endpointslice-updates-batch-period",
        "250ms",
      ],
      {
        maxEndpointsPerSlice: 50,
        endpointUpdatesBatchPeriodMs: 1000,
        mirroringMaxEndpointsPerSubset: 500,
        mirroringEndpointUpdatesBatchPeriodMs: 250,
      },
    ],
  ])("%j", (flags, want) => {
    expect(parseOptions(["--kubeconfig", "k", ...flags])).toMatchObject(want);
  });

  it.each([
    [["--max-endpoints-per-slice", "0"], "max-endpoints-per-slice must not be less than 1, but got 0"],
    [["--max-endpoints-per-slice", "1001"], "max-endpoints-per-slice must not be more than 1000, but got 1001"],
    [["--mirroring-max-endpoints-per-subset", "0"], "mirroring-max-endpoints-per-subset must not be less than 1, but got 0"],
    [["--mirroring-max-endpoints-per-subset", "2000"], "mirroring-max-endpoints-per-subset must not be more than 1000, but got 2000"],
    [["--max-endpoints-per-slice", "ten"], 'invalid argument "ten" for "--max-endpoints-per-slice" flag'],
    [["--endpointslice-updates-batch-period", "5"], 'time: invalid duration "5"'],
  ])("%j is a usage error", (flags, msg) => {
    expect(() => parseOptions(["--kubeconfig", "k", ...flags])).toThrow(msg);
  });
});
