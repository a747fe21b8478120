/**
 * Simulated Nodes for `@servicenet/apiserver/envtest`: this package's `runKubelet` in the test's
 * process, a plain API client over HTTP with the environment's kubeconfig, as `npm start` runs it
 * in a process of its own (the apiserver takes the returned starter and never imports this
 * package). Pods get IPs once the controller-manager's `nodeipam` gives the Nodes podCIDRs.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { defaultSimulatedNodeOptions, type SimulatedNodeOptions } from "../nodestatus/setters.ts";
import { runKubelet, type RunningKubelet } from "./run.ts";

/** Starts components against a kubeconfig (YAML text); the returned function stops them. */
export type TestEnvironmentStarter = (kubeconfig: string) => Promise<() => Promise<void>>;

/** `startTestEnvironment({ controllers: [..., testEnvironmentKubelet({ nodes: 3 })] })`. */
export function testEnvironmentKubelet(
  o: {
    nodes?: number;
    node?: Partial<SimulatedNodeOptions>;
    /** The Lease renew interval (default the kubelet's 10 s). */
    leaseRenewIntervalMs?: number;
    /** Handed the running kubelet once its Nodes are registered (to stop a Node: `stopNode`). */
    onReady?: (k: RunningKubelet) => void;
  } = {},
): TestEnvironmentStarter {
  return async (kubeconfig) => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const abort = new AbortController();
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const running = runKubelet(
      {
        kubeConfig: kc,
        nodes: o.nodes ?? 3,
        node: { ...defaultSimulatedNodeOptions, ...o.node },
        onReady: (k) => (o.onReady?.(k), ready()),
        ...(o.leaseRenewIntervalMs !== undefined ? { leaseRenewIntervalMs: o.leaseRenewIntervalMs } : {}),
      },
      abort.signal,
    );
    // Resolve once the Nodes are registered (a test can schedule onto them at once), or on failure.
    await Promise.race([started, running]);
    return async () => {
      abort.abort();
      await running;
    };
  };
}
