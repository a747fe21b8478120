/**
 * `startApiServer`: storage, bootstrap namespaces, TLS, token authentication and the HTTP(S)
 * server in one call, for `servicenet up`, tests and e2e.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StatusError } from "@servicenet/api";
import { defaultFeatureGatesAt, type FeatureGates } from "../features/kube-features.ts";
import { effectiveVersionFromFlag } from "../util/compatibility/version.ts";
import { serverVersion } from "../server/version.ts";
import { newServiceAllocators, type ServiceAllocators } from "../registry/core/rest/service-ip-allocators.ts";
import { KubernetesServiceController, defaultAdvertiseAddress } from "./controller/kubernetesservice/index.ts";
import { startIdentityLeaseControllers } from "./controller/apiserverleasegc/index.ts";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { startServiceIPControllers } from "./controller/service-ip-controllers.ts";
import type { UserInfo } from "../authentication/user/user.ts";
import { parseTokenFile } from "../authentication/token/tokenfile/tokenfile.ts";
import { componentCerts } from "./identities.ts";
import { startServer, type RunningServer } from "../server/server.ts";
import { ensureClientCert, ensureServingCerts, servingCertHosts, type ClientCert } from "../server/tls.ts";
import type { ServingOptions } from "../server/serving.ts";
import { createStore, type Store, type StoreConfig } from "../storage/index.ts";
import { kubeconfigText } from "./kubeconfig.ts";
import { servedAPIs } from "./api-resource-config.ts";
import { newControlPlaneAuthorization, type ControlPlaneAuthorization } from "./authorization.ts";
import type { AuthorizationWebhookOptions } from "../kubeapiserver/options/authorization.ts";
import type { AuditConfig } from "../audit/audit-request.ts";
import { CloserStack } from "./closer-stack.ts";
import { PostStartHooks } from "./post-start-hooks.ts";
import { followAPFConfiguration, newFlowControl, type FlowControlOptions } from "./flowcontrol.ts";
import { ensureAPFBootstrapConfiguration } from "../registry/flowcontrol/ensurer/ensurer.ts";
import { addSystemPriorityClasses, bootstrapSystemPriorityClassesHook } from "../registry/scheduling/rest/storage-scheduling.ts";
import { priorityClassStoragePath } from "../registry/scheduling/priorityclass/storage/storage.ts";
import { loadAdmissionPluginConfig } from "../kubeapiserver/admission/plugin-config.ts";
import { enabledAdmissionPlugins } from "../kubeapiserver/options/plugins.ts";
import type { PodAdmissionOptions } from "../kubeapiserver/admission/pod-plugins.ts";
import {
  completeServiceAccountFlags,
  defaultServiceAccountFlags,
  type ServiceAccountFlags,
} from "../kubeapiserver/options/service-account.ts";
import { ensureServiceAccountKeyFiles } from "@servicenet/client/util/keyutil";

export interface StartApiServerOptions {
  /** A store config (opened and closed by the server) or an open store (left open). Default: memory. */
  storage?: StoreConfig | Store;
  /** Certificates and the token file live here; without it certs go nowhere and TLS is off unless `tls` is given. */
  dataDir?: string;
  /** true: serve HTTPS with certs from `dataDir`/pki (generated on first start); false: plain HTTP. */
  tls?: boolean;
  /** Where the CA and serving certificate live (default `dataDir`/pki); shared by tests to save openssl runs. */
  pkiDir?: string;
  /** false disables bearer-token authentication (in-process tests only). Default true. */
  auth?: boolean;
  /** The token to accept; default: read from / generated into `dataDir`/tokens.csv, or random. */
  token?: string;
  /** `--token-auth-file`: the token file to use instead of `dataDir`/tokens.csv (read, never written). */
  tokenAuthFile?: string;
  /** `--client-ca-file` (path): the CA client certificates must chain to; default the generated cluster CA (with TLS). */
  clientCAFile?: string;
  /** `--anonymous-auth` (default true). */
  anonymousAuth?: boolean;
  host?: string;
  port?: number;
  /** `--service-cluster-ip-range`, primary first; default {@link defaultServiceClusterIPRange}. */
  serviceClusterIPRange?: string;
  /** `--service-node-port-range`; default 30000-32767. */
  serviceNodePortRange?: string;
  /**
   * `--emulated-version` (major.minor, 1.31 to 1.33): /version's emulation fields and the feature
   * gates' defaults when `featureGates` is not given; default 1.33.
   */
  emulatedVersion?: string;
  /** `--feature-gates`; default the gates of the emulated version (at 1.33: IPAddress allocator with dual-write). */
  featureGates?: FeatureGates;
  /** Period of the ClusterIP/NodePort repair loops; upstream's is 3 min. */
  repairIntervalMs?: number;
  /** Period of the kubernetes.default reconciliation (recreated when deleted); upstream's 10 s. */
  kubernetesServiceIntervalMs?: number;
  /**
   * `--advertise-address`: this apiserver's address in the `kubernetes` Endpoints and EndpointSlice
   * (default: `host`, or a host interface when `host` is unspecified or absent).
   */
  advertiseAddress?: string;
  /** TTL of this apiserver's master lease; upstream's DefaultEndpointReconcilerTTL is 15 s. */
  endpointReconcilerTTLMs?: number;
  /** One of `servicenet up --workers N` (N > 1): the workers share one master lease (see KubernetesServiceController). */
  sharedMasterLease?: boolean;
  /**
   * `--runtime-config` (kube-apiserver's grammar): beta and alpha versions to serve, e.g.
   * `networking.k8s.io/v1alpha1=true`; default "" (GA versions only, as 1.33).
   */
  runtimeConfig?: string;
  /** Errors and warnings always, info lines from V(2), a line per request from V(3); silent when omitted. */
  logger?: Logger;
  /** Header and TLS handshake deadlines; default upstream's (32 s). */
  serving?: ServingOptions;
  /** `--authorization-mode`; default RBAC, or AlwaysAllow when `auth` is false. */
  authorizationModes?: readonly string[];
  /**
   * `--authorization-webhook-config-file`, `--authorization-webhook-version` and the two cache
   * TTL flags: the Webhook mode's remote service. Required with mode Webhook, refused without it.
   */
  authorizationWebhook?: AuthorizationWebhookOptions;
  /** `--audit-policy-file` and `--audit-log-path`: audit Events per the policy; none when absent. */
  audit?: AuditConfig;
  /** The enabled admission plugins (`--enable/disable-admission-plugins`); default kube-apiserver 1.33's. */
  admissionPlugins?: readonly string[];
  /**
   * `--admission-control-config-file`: an AdmissionConfiguration (YAML or JSON) configuring the
   * enabled plugins, such as the webhooks' client credentials; read at start, a bad one fails it.
   */
  admissionControlConfigFile?: string;
  /** `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds` (default 300). */
  podAdmission?: PodAdmissionOptions;
  /**
   * `--enable-aggregator-routing` (default false, as kube-apiserver): a webhook's Service is called
   * at one of its ready endpoints instead of its ClusterIP, which only a dataplane on this host routes.
   */
  enableAggregatorRouting?: boolean;
  /** `--enable-priority-and-fairness`, `--max-requests-inflight`, `--max-mutating-requests-inflight` (flowcontrol.ts). */
  flowControl?: FlowControlOptions;
  /**
   * `--service-account-*` and `--api-audiences`, validated (kubeapiserver/options/service-account.ts).
   * Default, with a pki directory and authentication: kubeadm's, see {@link kubeadmServiceAccountFlags};
   * without either, no TokenRequest and no service-account tokens.
   */
  serviceAccounts?: ServiceAccountFlags;
}

/** kubeadm's service-account issuer (its default `--service-account-issuer`). */
export const kubeadmServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local";

/** kubeadm's flags: the `sa.key`/`sa.pub` pair in `pki`, made once, and its issuer. */
export function kubeadmServiceAccountFlags(pki: string): ServiceAccountFlags {
  const { keyFile, pubFile } = ensureServiceAccountKeyFiles(pki);
  return { ...defaultServiceAccountFlags(), issuers: [kubeadmServiceAccountIssuer], keyFiles: [pubFile], signingKeyFile: keyFile };
}

/** The Service ranges `servicenet up` uses unless told otherwise (dual-stack, IPv4 primary). */
export const defaultServiceClusterIPRange = "10.96.0.0/16,fd00:10:96::/112";

export interface ApiServer {
  url: string;
  port: number;
  /** The bearer token clients must send (undefined when auth is off). */
  token: string | undefined;
  /** PEM CA certificate of the serving certificate (undefined for HTTP). */
  caCert: string | undefined;
  store: Store;
  server: RunningServer;
  /** The ClusterIP/NodePort allocators and their mode. */
  serviceAllocators: ServiceAllocators;
  metrics: MetricsRegistry;
  /** The admin kubeconfig: a client certificate in system:masters with TLS (kubeadm's admin.conf), else the token. */
  kubeconfig(): string;
  /** The controller-manager's kubeconfig (its own identity plus one user per controller) and kube-proxy's. */
  componentKubeconfigs(): { controllerManager: string; kubeProxy: string; scheduler: string };
  close(): Promise<void>;
}

/** Namespaces every cluster starts with. */
export const bootstrapNamespaces = ["default", "kube-system", "kube-public", "kube-node-lease"] as const;

function isStore(s: StoreConfig | Store): s is Store {
  return typeof (s as Store).watch === "function";
}

/**
 * The token file: `--token-auth-file` as given, else `dataDir`/tokens.csv, made on first start with
 * an admin token (system:masters). The first token is the one tests and tools use. (The
 * controllers' identities are ServiceAccounts with TokenRequest tokens, which the
 * controller-manager asks for itself.)
 */
function loadOrCreateToken(
  dataDir: string | undefined,
  given: string | undefined,
  tokenAuthFile?: string,
): Map<string, UserInfo> & { primary: string } {
  let text: string;
  const file = tokenAuthFile ?? (dataDir ? join(dataDir, "tokens.csv") : undefined);
  if (tokenAuthFile !== undefined) text = readFileSync(tokenAuthFile, "utf8");
  else if (given !== undefined) text = `${given},admin,admin,"system:masters"\n`;
  else if (file && existsSync(file)) text = readFileSync(file, "utf8");
  else text = `${randomBytes(24).toString("hex")},admin,admin,"system:masters"\n`;
  if (file && given === undefined && tokenAuthFile === undefined && !existsSync(file)) writeFileSync(file, text, { mode: 0o600 });
  const tokens = parseTokenFile(text, file ?? "") as Map<string, UserInfo> & { primary: string };
  const first = [...tokens.keys()][0];
  if (first === undefined) throw new Error(`token file ${file ?? ""} has no tokens`);
  tokens.primary = first;
  return tokens;
}

async function bootstrap(server: RunningServer): Promise<void> {
  const ns = server.registry.stores.get("namespaces");
  if (!ns) return;
  for (const name of bootstrapNamespaces) {
    try {
      await ns.create(undefined, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === "AlreadyExists")) throw e;
    }
  }
}

/**
 * Creates `dataDir` with its serving certificates and token file, as `startApiServer` would on first
 * start: done once by the primary before several workers start on the same directory, so that they
 * all load the same CA and token instead of racing to generate their own.
 */
export function prepareDataDir(dataDir: string, opts: { tls: boolean; host?: string; serviceClusterIPRange?: string }): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (opts.tls) {
    const pki = join(dataDir, "pki");
    ensureServingCerts(pki, certHosts(opts));
    for (const c of Object.values(componentCerts)) ensureClientCert(pki, c.file, c.cn, c.orgs);
  }
  ensureServiceAccountKeyFiles(join(dataDir, "pki"));
  loadOrCreateToken(dataDir, undefined);
}

/** The serving certificate's names for a bind address and Service ranges. */
function certHosts(o: { host?: string; serviceClusterIPRange?: string }): string[] {
  return servingCertHosts({
    ...(o.host ? { bindAddress: o.host } : {}),
    serviceClusterIPRange: o.serviceClusterIPRange ?? defaultServiceClusterIPRange,
  });
}

/** Starts an apiserver; resolves when it listens and the bootstrap namespaces exist. */
export async function startApiServer(o: StartApiServerOptions = {}): Promise<ApiServer> {
  // A bad --runtime-config fails before anything is opened.
  const apis = servedAPIs(o.runtimeConfig ?? "");
  // So does a bad --admission-control-config-file (kube-apiserver reads it while building its config).
  const admissionPluginConfig = loadAdmissionPluginConfig(
    o.admissionPlugins ?? enabledAdmissionPlugins(),
    o.admissionControlConfigFile ?? "",
  );
  const useTLS = o.tls ?? o.dataDir !== undefined;
  if (useTLS && !o.dataDir) throw new Error("startApiServer: tls needs a dataDir for its certificates");
  // Everything started registers its close here; a failed start and close() run them in reverse, once.
  const closers = new CloserStack();
  try {
    if (o.dataDir) mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
    const store = o.storage && isStore(o.storage) ? o.storage : await createStore(o.storage ?? { backend: "memory" });
    if (!(o.storage && isStore(o.storage))) closers.push("storage", () => store.close());
    const certs = useTLS ? ensureServingCerts(o.pkiDir ?? join(o.dataDir!, "pki"), certHosts(o)) : undefined;
    const tokens = o.auth === false ? undefined : loadOrCreateToken(o.dataDir, o.token, o.tokenAuthFile);
    const pki = o.pkiDir ?? (o.dataDir ? join(o.dataDir, "pki") : undefined);
    const clientCerts = certs && pki && tokens ? issueComponentCerts(pki) : undefined;
    const clientCA = o.clientCAFile !== undefined ? readFileSync(o.clientCAFile, "utf8") : certs?.caCert;
    const metrics = new MetricsRegistry();
    const logger = o.logger ?? noopLogger;
    const effective = effectiveVersionFromFlag(o.emulatedVersion !== undefined ? [o.emulatedVersion] : []);
    // Complete: the keys are read now, so a bad key file fails the start.
    const saFlags = o.serviceAccounts ?? (pki && tokens ? kubeadmServiceAccountFlags(pki) : undefined);
    const serviceAccounts = saFlags ? completeServiceAccountFlags(saFlags, (m) => logger.info(m)) : undefined;
    const gates = o.featureGates ?? defaultFeatureGatesAt(effective.emulationVersion.toString());
    const range = o.serviceClusterIPRange ?? defaultServiceClusterIPRange;
    const nodePorts = o.serviceNodePortRange ? { serviceNodePortRange: o.serviceNodePortRange } : {};
    const sa = await newServiceAllocators({ store, serviceClusterIPRange: range, ...nodePorts, featureGates: gates, metrics, logger });
    closers.push("service allocators", () => sa.stop());
    const modes = o.authorizationModes ?? (o.auth === false ? ["AlwaysAllow"] : ["RBAC"]);
    const authz = await newControlPlaneAuthorization(store, modes, {
      gates: { MultiCIDRServiceAllocator: gates.MultiCIDRServiceAllocator },
      authorizeWithSelectors: gates.AuthorizeWithSelectors,
      ...(o.authorizationWebhook ? { webhook: o.authorizationWebhook } : {}),
    });
    closers.push("authorization", () => authz.stop());
    const flowControl = await newFlowControl(o.flowControl ?? {}, store, apis.resources, metrics);
    closers.push("flow control", () => flowControl.stop());
    const hooks = new PostStartHooks();
    const server = await startServer({
      flowControl: flowControl.config,
      authorizer: authz.authorizer,
      authorizeWithSelectors: gates.AuthorizeWithSelectors,
      strictCostEnforcementForVAP: gates.StrictCostEnforcementForVAP,
      strictCostEnforcementForWebhooks: gates.StrictCostEnforcementForWebhooks,
      version: serverVersion(effective),
      ...(authz.ruleResolver ? { ruleResolver: authz.ruleResolver } : {}),
      authorizerRuleResolver: authz.rulesReviewer,
      store,
      serviceAllocators: sa.allocators,
      metricsRegistry: metrics,
      ...(tokens ? { tokens } : {}),
      ...(tokens && clientCA ? { clientCA } : {}),
      ...(o.anonymousAuth !== undefined ? { anonymousAuth: o.anonymousAuth } : {}),
      ...(certs ? { tls: { key: certs.key, cert: certs.cert } } : {}),
      ...(o.host ? { host: o.host } : {}),
      port: o.port ?? 0,
      postStartHooks: addPostStartHooks(hooks, o, { store, sa, authz, flowControl, metrics, logger, closers, server: () => server }),
      resources: apis.resources,
      reviews: apis.reviews,
      logger,
      ...(o.serving ? { serving: o.serving } : {}),
      ...(o.audit ? { audit: o.audit } : {}),
      ...(o.admissionPlugins ? { admissionPlugins: o.admissionPlugins } : {}),
      ...(o.enableAggregatorRouting !== undefined ? { enableAggregatorRouting: o.enableAggregatorRouting } : {}),
      admissionPluginConfig,
      ...(o.podAdmission ? { podAdmission: o.podAdmission } : {}),
      ...(serviceAccounts ? { serviceAccounts } : {}),
    });
    closers.push("server", () => server.close());
    await hooks.run();
    const leases = server.registry.stores.get("leases");
    const identity = leases ? startIdentityLeaseControllers({ leases, logger }) : undefined;
    if (identity) closers.push("identity leases", () => identity.stop());
    return apiServer({ server, store, sa, metrics, tokens, certs, clientCerts, close: () => closers.close() });
  } catch (e) {
    await closers.close();
    throw e;
  }
}

interface HookDeps {
  store: Store;
  sa: ServiceAllocators;
  authz: ControlPlaneAuthorization;
  flowControl: Awaited<ReturnType<typeof newFlowControl>>;
  metrics: MetricsRegistry;
  logger: Logger;
  closers: CloserStack;
  /** The server, once it listens (hooks run only after). */
  server: () => RunningServer;
}

/**
 * upstream's post-start hooks of the same work, in the order their checks are listed: /healthz,
 * /livez and /readyz fail until each finished. Each hook registers the close of what it starts.
 */
function addPostStartHooks(hooks: PostStartHooks, o: StartApiServerOptions, d: HookDeps): ReturnType<PostStartHooks["healthChecks"]> {
  hooks.add("start-system-namespaces-controller", () => bootstrap(d.server()));
  hooks.add("start-service-ip-repair-controllers", async () => {
    const repair = await startServiceIPControllers({
      store: d.store,
      allocators: d.sa,
      metrics: d.metrics,
      ...(o.repairIntervalMs !== undefined ? { repairIntervalMs: o.repairIntervalMs } : {}),
      logger: d.logger,
    });
    d.closers.push("service IP repair controllers", () => repair.stop());
  });
  // upstream's bootstrap controller (kubernetesservice): kubernetes.default and its endpoints now
  // and every 10 s, so a deleted kubernetes.default comes back (the documented ServiceCIDR
  // migration relies on it) and the endpoints follow the live apiservers. A failed sync is
  // logged and retried, never fatal (after a change of the primary family the old
  // kubernetes.default cannot be updated).
  hooks.add("bootstrap-controller", async () => {
    const server = d.server();
    const kubernetesService = new KubernetesServiceController({
      stores: server.registry.stores,
      store: d.store,
      port: server.port,
      advertiseAddress: o.advertiseAddress ?? defaultAdvertiseAddress(o.host),
      ...(o.kubernetesServiceIntervalMs !== undefined ? { intervalMs: o.kubernetesServiceIntervalMs } : {}),
      ...(o.endpointReconcilerTTLMs !== undefined ? { leaseTTLMs: o.endpointReconcilerTTLMs } : {}),
      ...(o.sharedMasterLease ? { sharedLease: true } : {}),
      logger: d.logger,
    });
    // Registered before it starts: a start that fails half-way still takes its address back out.
    d.closers.push("kubernetes service controller", () => kubernetesService.stop());
    await kubernetesService.start();
  });
  const rbac = d.authz.postStartHook;
  if (rbac !== undefined) hooks.add(rbac, () => d.authz.bootstrap(d.server().registry.stores, d.logger));
  // The scheduling storage provider's hook, after RBAC's as in kube-apiserver's /readyz list.
  hooks.add(bootstrapSystemPriorityClassesHook, async () => {
    const pcs = d.server().registry.stores.get(priorityClassStoragePath);
    if (pcs) await addSystemPriorityClasses(pcs);
  });
  // upstream's priority-and-fairness-config-producer: the bootstrap FlowSchemas and priority
  // levels, then the dispatcher follows the stored configuration.
  hooks.add("priority-and-fairness-config-producer", async () => {
    const stores = d.server().registry.stores;
    await ensureAPFBootstrapConfiguration(stores);
    if (d.flowControl.apf) await followAPFConfiguration(d.flowControl.apf, stores, d.flowControl.signal);
  });
  return hooks.healthChecks();
}

/** The started parts as the caller sees them. */
function apiServer(p: {
  server: RunningServer;
  store: Store;
  sa: ServiceAllocators;
  metrics: MetricsRegistry;
  tokens: (Map<string, UserInfo> & { primary: string }) | undefined;
  certs: { caCert: string } | undefined;
  clientCerts: ReturnType<typeof issueComponentCerts> | undefined;
  close(): Promise<void>;
}): ApiServer {
  const { server, tokens, clientCerts } = p;
  const ca = p.certs ? { caCert: p.certs.caCert } : {};
  return {
    url: server.url,
    port: server.port,
    token: tokens?.primary,
    caCert: p.certs?.caCert,
    store: p.store,
    server,
    serviceAllocators: p.sa,
    metrics: p.metrics,
    kubeconfig: () => kubeconfigText({ server: server.url, ...credentials(clientCerts?.admin, tokens?.primary), ...ca }),
    componentKubeconfigs: () => {
      return {
        controllerManager: kubeconfigText({ server: server.url, ...credentials(clientCerts?.controllerManager, tokens?.primary), ...ca }),
        kubeProxy: kubeconfigText({ server: server.url, ...credentials(clientCerts?.kubeProxy, tokens?.primary), ...ca }),
        scheduler: kubeconfigText({ server: server.url, ...credentials(clientCerts?.scheduler, tokens?.primary), ...ca }),
      };
    },
    close: () => p.close(),
  };
}

/** The client certificates of the admin and the components, issued by the cluster CA on first start. */
function issueComponentCerts(pki: string): {
  admin: ClientCert;
  controllerManager: ClientCert;
  kubeProxy: ClientCert;
  scheduler: ClientCert;
} {
  const issue = (c: { file: string; cn: string; orgs: readonly string[] }) => ensureClientCert(pki, c.file, c.cn, c.orgs);
  return {
    admin: issue(componentCerts.admin),
    controllerManager: issue(componentCerts.controllerManager),
    kubeProxy: issue(componentCerts.kubeProxy),
    scheduler: issue(componentCerts.scheduler),
  };
}

/** A kubeconfig user's credentials: the client certificate when there is one, else the token. */
function credentials(cert: ClientCert | undefined, token: string | undefined): { clientCert?: string; clientKey?: string; token?: string } {
  return cert ? { clientCert: cert.cert, clientKey: cert.key } : { token: token ?? "" };
}
