/**
 * The scheduler for `@servicenet/apiserver/envtest`: this package's `runScheduler` in the test's
 * process, a plain API client over HTTP with the environment's kubeconfig (the apiserver takes the
 * returned starter and never imports this package).
 */
import { KubeConfig } from "@kubernetes/client-node";
import { runScheduler } from "./run.ts";

/** Starts components against a kubeconfig (YAML text); the returned function stops them. */
export type TestEnvironmentStarter = (kubeconfig: string) => Promise<() => Promise<void>>;

/** `startTestEnvironment({ controllers: [..., testEnvironmentScheduler()] })`. */
export function testEnvironmentScheduler(): TestEnvironmentStarter {
  return async (kubeconfig) => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const abort = new AbortController();
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const running = runScheduler({ kubeConfig: kc, onReady: () => ready() }, abort.signal);
    await Promise.race([started, running]);
    return async () => {
      abort.abort();
      await running;
    };
  };
}
