/**
 * `@servicenet/apiserver/envtest`: an in-process apiserver for tests of controllers and clients,
 * in the spirit of controller-runtime's envtest. Memory storage, plain HTTP and no authentication
 * by default; a kubeconfig (text and file) that @kubernetes/client-node and kubectl accept; and
 * `reset()` to empty the cluster between tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApiServer, type ApiServer, type StartApiServerOptions } from "../controlplane/apiserver.ts";
import { writeKubeconfig, kubeconfigText } from "../controlplane/kubeconfig.ts";
import { enabledAdmissionPlugins } from "../kubeapiserver/options/plugins.ts";
import { resourceTable } from "../server/resources.ts";
import { resourcePrefix } from "../storage/index.ts";
import type { StoreInformer } from "../util/informer/store-informer.ts";
import { restoreStore, snapshotStore, type StoreSnapshot } from "./snapshot.ts";

/**
 * Starts controllers against the environment's kubeconfig (YAML text) and returns how to stop
 * them: `testEnvironmentControllers([...])` of @servicenet/controller-manager is one.
 */
export type TestEnvironmentControllers = (kubeconfig: string) => Promise<() => Promise<void>>;

export interface TestEnvironmentOptions extends Omit<StartApiServerOptions, "dataDir" | "tls" | "auth"> {
  /** Serve HTTPS with a generated CA (embedded in the kubeconfig). Default false: plain HTTP. */
  tls?: boolean;
  /** Require a bearer token (written into the kubeconfig). Default false. */
  auth?: boolean;
  /** Where HTTPS certificates are kept; default one directory under the temp dir shared by all runs. */
  pkiDir?: string;
  /**
   * Controllers to run against the server over HTTP, through its kubeconfig, e.g.
   * `testEnvironmentControllers(["endpoint", "endpointslice", "namespace"])` from @servicenet/controller-manager
   * (the apiserver never imports a controller: they are API clients). Several start in order and
   * stop in reverse: the whole cluster is `[testEnvironmentControllers([..., "nodeipam"]),
   * testEnvironmentScheduler(), testEnvironmentKubelet({ nodes: 3 })]` (@servicenet/scheduler,
   * @servicenet/kubelet). Default none.
   */
  controllers?: TestEnvironmentControllers | readonly TestEnvironmentControllers[];
}

export interface TestEnvironment {
  /** `http://127.0.0.1:PORT` or `https://…`. */
  url: string;
  /** Kubeconfig YAML: `new KubeConfig().loadFromString(env.kubeconfig)`. */
  kubeconfig: string;
  /** The same kubeconfig as a file (owner-only), for `loadFromFile` and `kubectl --kubeconfig`. */
  kubeconfigPath: string;
  /** The bearer token (undefined without `auth`). */
  token: string | undefined;
  /** PEM CA of the serving certificate (undefined over HTTP). */
  caCert: string | undefined;
  /** The running apiserver, for tests that need its store or metrics. */
  api: ApiServer;
  /**
   * Deletes every object created since start and puts back what bootstrap created (namespaces
   * default/kube-system/kube-public/kube-node-lease, the kubernetes Service and its IPAddress,
   * the default ServiceCIDR, the allocation ranges). Released ClusterIPs and
   * NodePorts can be allocated again as soon as it resolves. Watches see the deletions.
   */
  reset(): Promise<void>;
  /** Stops the server and removes the kubeconfig's directory. */
  stop(): Promise<void>;
}

/** How long `reset` waits for the allocators' caches to see the restored state. */
const cacheSyncTimeoutMs = 5_000;

/** Starts an apiserver for a test file; see {@link TestEnvironment}. */
export async function startTestEnvironment(o: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
  const { controllers, ...serverOptions } = o;
  const dir = mkdtempSync(join(tmpdir(), "servicenet-envtest-"));
  const tls = o.tls ?? false;
  let api: ApiServer;
  try {
    api = await startApiServer({
      storage: { backend: "memory" },
      // As upstream's integration framework (DefaultTestServerFlags): no serviceaccount controller
      // creates the `default` ServiceAccounts here, so ServiceAccount admission is off unless asked for.
      admissionPlugins: enabledAdmissionPlugins({ disable: ["ServiceAccount"] }),
      ...serverOptions,
      dataDir: join(dir, "data"),
      tls,
      auth: o.auth ?? false,
      ...(tls ? { pkiDir: o.pkiDir ?? join(tmpdir(), "servicenet-envtest-pki") } : {}),
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const kubeconfigPath = join(dir, "kubeconfig");
  const kc = { server: api.url, token: api.token ?? "", ...(api.caCert ? { caCert: api.caCert } : {}) };
  writeKubeconfig(kubeconfigPath, kc);
  // Taken before any controller runs: reset() returns to what bootstrap alone made.
  const paths = [...new Set(resourceTable.map((d) => d.storagePath))];
  let snapshot: StoreSnapshot = await snapshotStore(api.store, paths);
  let stopControllers = async (): Promise<void> => {};
  const text = kubeconfigText(kc);
  if (controllers) {
    const stops: (() => Promise<void>)[] = [];
    stopControllers = async () => {
      for (const s of stops.reverse()) await s();
    };
    try {
      for (const start of Array.isArray(controllers) ? controllers : [controllers]) stops.push(await start(text));
    } catch (e) {
      await stopControllers();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }
  const informers = [
    ["servicecidrs", api.serviceAllocators.serviceCIDRs],
    ["ipaddresses", api.serviceAllocators.ipAddresses],
  ] as const;
  return {
    url: api.url,
    kubeconfig: text,
    kubeconfigPath,
    token: api.token,
    caCert: api.caCert,
    api,
    reset: async () => {
      const r = await restoreStore(api.store, snapshot, paths);
      snapshot = r.snapshot;
      if (r.writes === 0) return;
      for (const [path, inf] of informers) if (inf) await cacheMatches(inf, snapshot, path);
    },
    stop: async () => {
      await stopControllers();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once the informer holds exactly the snapshot's objects under `path`: the allocators
 * decide from these caches, so a test right after `reset` must not see a deleted IPAddress.
 */
async function cacheMatches(inf: StoreInformer, snapshot: StoreSnapshot, path: string): Promise<void> {
  const prefix = resourcePrefix(path);
  const want = new Map<string, string>();
  for (const [key, obj] of snapshot) if (key.startsWith(prefix)) want.set(obj.metadata.name ?? "", obj.metadata.resourceVersion ?? "");
  const deadline = Date.now() + cacheSyncTimeoutMs;
  for (;;) {
    const have = inf.list();
    if (have.length === want.size && have.every((obj) => want.get(obj.metadata.name ?? "") === obj.metadata.resourceVersion)) return;
    if (Date.now() > deadline) throw new Error(`envtest reset: the ${path} cache did not catch up within ${cacheSyncTimeoutMs} ms`);
    await new Promise((r) => setImmediate(r));
  }
}
