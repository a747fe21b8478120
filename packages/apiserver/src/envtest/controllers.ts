/**
 * Optional controllers for a test environment: @servicenet/controller-manager's own
 * `runControllerManager`, in this process but as a plain API client over HTTP with the
 * environment's kubeconfig, exactly as `npm start` runs it as a separate process. Both packages
 * are optional peers, loaded only when controllers are asked for.
 */

/**
 * The controller-manager controllers a test environment can run. Not `servicecidr`: it writes a
 * finalizer on the bootstrap ServiceCIDR, which `reset()` would keep taking away.
 */
export type TestControllerName = "endpoint" | "endpointslice";

interface ControllerManagerModule {
  runControllerManager(o: { kubeConfig: unknown; controllers: readonly TestControllerName[] }, signal: AbortSignal): Promise<unknown>;
}
interface ClientNodeModule {
  KubeConfig: new () => { loadFromString(text: string): void };
}

// Through variables: neither package is a dependency, and a missing one is reported below.
const controllerManagerPackage = "@servicenet/controller-manager";
const clientNodePackage = "@kubernetes/client-node";

async function load<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (e) {
    throw new Error(`startTestEnvironment({ controllers }) needs ${name} installed: ${String(e)}`, { cause: e });
  }
}

/** Starts `controllers` against the kubeconfig; the returned function stops them. */
export async function startControllers(kubeconfig: string, controllers: readonly TestControllerName[]): Promise<() => Promise<void>> {
  const cm = await load<ControllerManagerModule>(controllerManagerPackage);
  const { KubeConfig } = await load<ClientNodeModule>(clientNodePackage);
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const abort = new AbortController();
  const running = cm.runControllerManager({ kubeConfig: kc, controllers }, abort.signal);
  // A controller-manager that fails on its own is reported when the environment stops.
  running.catch(() => undefined);
  return async () => {
    abort.abort();
    await running;
  };
}
