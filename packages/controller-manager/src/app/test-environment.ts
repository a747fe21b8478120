/**
 * Controllers for `@servicenet/apiserver/envtest`: this package's `runControllerManager` in the
 * test's process, still a plain API client over HTTP with the environment's kubeconfig, as
 * `npm start` runs it in a process of its own. The apiserver takes the returned starter and never
 * imports this package (components talk to each other over HTTP only).
 */
import { KubeConfig } from "@kubernetes/client-node";
import { runControllerManager } from "./run.ts";
import type { NodeLifecycleConfig } from "../controller/nodelifecycle/config.ts";

/**
 * The controllers a test environment can run. Not `servicecidr`: it writes a finalizer on the
 * bootstrap ServiceCIDR, which the environment's `reset()` would keep taking away.
 */
export type TestEnvironmentControllerName =
  | "endpoint"
  | "endpointslice"
  | "namespace"
  | "garbagecollector"
  | "clusterrole-aggregation"
  | "nodeipam"
  | "deployment"
  | "replicaset"
  | "statefulset"
  | "daemonset"
  | "serviceaccount"
  | "node-lifecycle-controller"
  | "taint-eviction-controller"
  | "disruption"
  | "job-controller"
  | "cronjob-controller"
  | "ttl-after-finished-controller"
  | "serviceaccount-token-controller";

/** Options of the test environment's controllers. */
export interface TestEnvironmentControllerOptions {
  /** `--cluster-cidr` of `nodeipam` (one CIDR, or one per family); default 10.244.0.0/16,fd00:10:244::/56. */
  clusterCIDR?: string;
  /** The node lifecycle controller's periods (e.g. a short --node-monitor-grace-period); default upstream's. */
  nodeLifecycle?: Partial<NodeLifecycleConfig>;
  /** `--service-account-private-key-file` of `serviceaccount-token-controller` (the apiserver's signing key). */
  serviceAccountKeyFile?: string;
}

/** Starts controllers against a kubeconfig (YAML text); the returned function stops them. */
export type TestEnvironmentControllers = (kubeconfig: string) => Promise<() => Promise<void>>;

/** `startTestEnvironment({ controllers: testEnvironmentControllers(["endpoint", "endpointslice"]) })`. */
export function testEnvironmentControllers(
  names: readonly TestEnvironmentControllerName[],
  o: TestEnvironmentControllerOptions = {},
): TestEnvironmentControllers {
  return (kubeconfig) => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const abort = new AbortController();
    const nodeIpam = {
      allocateNodeCIDRs: true,
      clusterCIDR: o.clusterCIDR ?? "10.244.0.0/16,fd00:10:244::/56",
      serviceCIDR: "",
      nodeCIDRMaskSize: 0,
      nodeCIDRMaskSizeIPv4: 0,
      nodeCIDRMaskSizeIPv6: 0,
    };
    const running = runControllerManager(
      {
        kubeConfig: kc,
        controllers: names,
        nodeIpam,
        ...(o.nodeLifecycle ? { nodeLifecycle: o.nodeLifecycle } : {}),
        ...(o.serviceAccountKeyFile ? { serviceAccountKeyFile: o.serviceAccountKeyFile } : {}),
      },
      abort.signal,
    );
    // A controller-manager that fails on its own is reported when the environment stops.
    running.catch(() => undefined);
    return Promise.resolve(async () => {
      abort.abort();
      await running;
    });
  };
}
