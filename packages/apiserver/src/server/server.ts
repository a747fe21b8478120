/**
 * The apiserver's HTTP(S) server: the handler chain (handler-chain.ts) behind node's HTTP or
 * HTTPS server, with kube-apiserver's header limits, idle timeout and TLS client certificates.
 * The server never crashes on bad input: every failure becomes a Status response.
 */
import { withEvictionSubresource } from "../registry/core/rest/storage-core-eviction.ts";
import { newAdmission } from "../kubeapiserver/admission/config.ts";
import type { AdmissionPluginConfig } from "../kubeapiserver/admission/plugin-config.ts";
import { withLoopbackToken } from "../authentication/loopback.ts";
import { loopbackHost, type Loopback } from "../util/webhook/loopback.ts";
import { enabledAdmissionPlugins } from "../kubeapiserver/options/plugins.ts";
import type { PodAdmissionOptions } from "../kubeapiserver/admission/pod-plugins.ts";
import { createServer as createHTTPServer, type Server } from "node:http";
import { createServer as createHTTPSServer } from "node:https";
import { setMaxListeners } from "node:events";
import type { AddressInfo } from "node:net";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { Store } from "../storage/index.ts";
import type { UserInfo } from "../authentication/user/user.ts";
import { newAuthenticator } from "../authentication/authenticator-config.ts";
import type { AuditConfig } from "../audit/audit-request.ts";
import type { AuthorizationRuleResolver, Authorizer, RuleResolver } from "../authorization/authorizer/interfaces.ts";
import { initServiceStorage, type Allocators } from "../registry/core/service/index.ts";
import type { FlowControlConfig } from "./filters/flow-control.ts";
import { buildHandlerChain, director } from "./handler-chain.ts";
import { apiserverHealthChecks, type HealthChecker } from "./healthz.ts";
import { RequestMetrics } from "./metrics.ts";
import { nonResourceMux } from "./mux.ts";
import { createOpenAPIHandlers, type OpenAPISpecSource } from "./openapi/index.ts";
import { resourceHandler } from "./resource-handler.ts";
import { resourceTable, type ResourceDef } from "./resources.ts";
import { withFeatureGatedStrategies } from "./feature-gated-strategies.ts";
import { newRESTStorage, type RESTStorage } from "./rest-storage.ts";
import { reviewTable, type ReviewDef } from "./reviews.ts";
import { configureServing, httpServerOptions, type ServingOptions } from "./serving.ts";
import { serverVersion, type VersionInfo } from "./version.ts";
import { crdStoragePath, startCustomResourceServer } from "../apiextensions/apiserver/apiserver.ts";
import { conversionWebhookClients } from "../apiextensions/apiserver/conversion/clients.ts";
import { startPolicyStatusController } from "../controlplane/controller/validatingadmissionpolicystatus/start.ts";
import { validatingAdmissionPolicyStoragePath } from "../registry/admissionregistration/rest/storage-admissionregistration.ts";
import type { ServiceAccountConfig } from "../kubeapiserver/options/service-account.ts";
import {
  newServiceAccountAuthenticators,
  storageSecretLabeler,
  openIDMetadataOf,
  storageTokenGetter,
  withTokenSubresource,
} from "../controlplane/service-accounts.ts";

export interface APIServerConfig {
  store: Store;
  /** ClusterIP and NodePort allocators; without them Services keep whatever IPs they were given. */
  serviceAllocators?: Allocators;
  /** Bearer tokens; undefined disables authentication (in-process tests only). */
  tokens?: ReadonlyMap<string, UserInfo>;
  /** `--client-ca-file` (PEM): client certificates signed by it authenticate (with `tokens` set). */
  clientCA?: string;
  /** `--anonymous-auth` (default true): requests without credentials are system:anonymous. */
  anonymousAuth?: boolean;
  /**
   * Authorizes every request (filters/authorization.ts) and answers the RBAC storages' `escalate`
   * and `bind` checks; undefined allows everything (in-process tests).
   */
  authorizer?: Authorizer;
  /**
   * The AuthorizeWithSelectors feature gate (default on, as 1.33): requests' field and label
   * selectors reach the authorizer, and CEL's authorizer has `fieldSelector()`/`labelSelector()`.
   */
  authorizeWithSelectors?: boolean;
  /**
   * StrictCostEnforcementForVAP and StrictCostEnforcementForWebhooks (default on, locked since 1.32;
   * off only under an emulated 1.31): admission CEL pays the library functions' costs.
   */
  strictCostEnforcementForVAP?: boolean;
  strictCostEnforcementForWebhooks?: boolean;
  /** The rules users hold; with it, RBAC writes are checked for escalation (none are without). */
  ruleResolver?: AuthorizationRuleResolver;
  /** The authorization modes' rules (authorizer.RuleResolver), for SelfSubjectRulesReview; undefined lists `*`. */
  authorizerRuleResolver?: RuleResolver;
  /** PEM key and certificate; plain HTTP without. */
  tls?: { key: string; cert: string };
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The served resources (`--runtime-config`'s choice); default {@link resourceTable}. */
  resources?: readonly ResourceDef[];
  /** The served review APIs; default {@link reviewTable}. */
  reviews?: readonly ReviewDef[];
  version?: VersionInfo;
  /** Post-start hooks' checks (`poststarthook/<name>`), in /healthz, /livez and /readyz until they finish. */
  postStartHooks?: readonly HealthChecker[];
  /** `--audit-policy-file` and `--audit-log-path`: audit Events of every request per the policy. */
  audit?: AuditConfig;
  /** Errors always; a line per request (upstream's httplog) from V(3). Silent when omitted. */
  logger?: Logger;
  /** API Priority and Fairness, or the max-in-flight limit when it is off (filters/flow-control.ts); none: no limit. */
  flowControl?: FlowControlConfig;
  /**
   * The enabled admission plugins (`--enable-admission-plugins` / `--disable-admission-plugins`
   * applied to kube-apiserver's defaults); default {@link enabledAdmissionPlugins}().
   */
  admissionPlugins?: readonly string[];
  /** `--enable-aggregator-routing`: webhooks' Services are called at an endpoint rather than the ClusterIP. */
  enableAggregatorRouting?: boolean;
  /** The admission plugins' configuration (`--admission-control-config-file`, read by loadAdmissionPluginConfig). */
  admissionPluginConfig?: AdmissionPluginConfig;
  /** `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds` (default 300). */
  podAdmission?: PodAdmissionOptions;
  /** Component metrics (allocators, repair loops) served on /metrics after the request metrics. */
  metricsRegistry?: MetricsRegistry;
  /** Non-watch requests still unanswered after this get 504 (upstream --request-timeout, 60 s). */
  requestTimeoutMs?: number;
  /** Header and TLS handshake deadlines (upstream's 32 s ReadHeaderTimeout by default). */
  serving?: ServingOptions;
  /**
   * The service-account token flags, completed (kubeapiserver/options/service-account.ts): with a
   * signing key `serviceaccounts/token` is served, with issuers and keys their tokens authenticate.
   * None: neither (in-process tests).
   */
  serviceAccounts?: ServiceAccountConfig;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  metrics: RequestMetrics;
  /** The REST storage (one store per storage path). */
  registry: RESTStorage;
  close(): Promise<void>;
}

/**
 * Request line plus headers: kube-apiserver's MaxHeaderBytes (1 MiB, net/http's DefaultMaxHeaderBytes)
 * plus the 4096 bytes of bufio slack net/http's initialReadLimitSize adds. Node's default is 16 KiB.
 */
export const maxHeaderSize = (1 << 20) + 4096;

/** net/http's answer to headers over the limit (server.go, errTooLarge), byte for byte. */
const headerTooLarge =
  "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large";

/** Starts the server and resolves once it listens. */
export async function startServer(cfg: APIServerConfig): Promise<RunningServer> {
  const { registry, handler, metrics, shutdown, crds, admission, policyStatus, loopback } = await newHandler(cfg);
  const serving = cfg.serving ?? {};
  // With a client CA the server asks for a certificate but lets the x509 authenticator judge it
  // (Go's tls.RequestClientCert), so token and anonymous clients still connect.
  const clientAuth = cfg.clientCA !== undefined ? { requestCert: true, rejectUnauthorized: false, ca: cfg.clientCA } : {};
  const server = cfg.tls
    ? createHTTPSServer({ key: cfg.tls.key, cert: cfg.tls.cert, ...clientAuth, ...httpServerOptions(serving), maxHeaderSize }, handler)
    : createHTTPServer({ ...httpServerOptions(serving), maxHeaderSize }, handler);
  // Slowloris protection without cutting long watches: only the header phase (and the TLS
  // handshake) is bounded.
  configureServing(server, cfg.tls !== undefined, serving);
  server.requestTimeout = 0;
  // kube-apiserver's IdleTimeout (90 s, client-go's idle-connection timeout). Node's 5 s default
  // resets requests that pooled clients write onto a connection the server is just closing.
  server.keepAliveTimeout = 90_000;
  server.on("clientError", (e: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    socket.end(e.code === "HPE_HEADER_OVERFLOW" ? headerTooLarge : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(cfg.port ?? 0, cfg.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = cfg.host ?? "127.0.0.1";
  loopback.address = { host: loopbackHost(host), port };
  return {
    url: `${cfg.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    server,
    metrics,
    registry,
    close: () =>
      new Promise<void>((resolve) => {
        shutdown.abort();
        crds?.stop();
        admission.stop();
        policyStatus?.stop();
        registry.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The REST storage and the handler chain over it (upstream's New: the APIServerHandler). */
async function newHandler(cfg: APIServerConfig) {
  // The token getters read the stores built below, at request time.
  const tokenGetter = storageTokenGetter(() => registry.stores);
  const sa = cfg.serviceAccounts;
  const table = cfg.resources ?? resourceTable;
  const withToken = sa ? withTokenSubresource(table, sa, tokenGetter) : table;
  const resources = withFeatureGatedStrategies(
    withEvictionSubresource(withToken, () => registry.stores),
    {
      authorizeWithSelectors: cfg.authorizeWithSelectors ?? true,
    },
  );
  const reviews = cfg.reviews ?? reviewTable;
  const admissionPlugins = cfg.admissionPlugins ?? enabledAdmissionPlugins();
  const registry = newRESTStorage(
    cfg.store,
    resources,
    cfg.serviceAllocators,
    {
      ...(cfg.authorizer ? { authorizer: cfg.authorizer } : {}),
      ...(cfg.ruleResolver ? { ruleResolver: cfg.ruleResolver } : {}),
    },
    { namespaceLifecycle: admissionPlugins.includes("NamespaceLifecycle") },
  );
  // Before the first request: an early create must not get an IP a stored Service holds.
  await initServiceStorage(registry.stores);
  // The apiextensions-apiserver delegate: custom resources, and their discovery, follow the CRDs.
  const logger = cfg.logger ?? noopLogger;
  // The loopback client (its address is known once the server listens): webhooks at kubernetes.default.svc.
  const withLoopback = cfg.tokens ? withLoopbackToken(cfg.tokens) : undefined;
  const loopback: Loopback = withLoopback ? { token: withLoopback.token } : {};
  const crds = resources.some((r) => r.storagePath === crdStoragePath)
    ? startCustomResourceServer({
        store: cfg.store,
        crdStore: registry.storeFor({ storagePath: crdStoragePath }),
        newStore: (d) => registry.newStore(d),
        conversion: conversionWebhookClients(cfg.store, cfg.enableAggregatorRouting ?? false, loopback),
        logger,
      })
    : undefined;
  await crds?.synced;
  const served = (): readonly ResourceDef[] => (crds ? [...resources, ...crds.handler.resources()] : resources);
  const admission = newAdmission(admissionPlugins, {
    loopback,
    store: cfg.store,
    namespaces: registry.namespaces,
    served,
    servedGeneration: () => crds?.handler.generation ?? 0,
    enableAggregatorRouting: cfg.enableAggregatorRouting ?? false,
    ...(cfg.admissionPluginConfig ? { pluginConfig: cfg.admissionPluginConfig } : {}),
    ...(cfg.podAdmission ? { pod: cfg.podAdmission } : {}),
    ...(cfg.authorizer ? { authorizer: cfg.authorizer } : {}),
    ...(cfg.authorizeWithSelectors !== undefined ? { authorizeWithSelectors: cfg.authorizeWithSelectors } : {}),
    ...(cfg.strictCostEnforcementForVAP !== undefined ? { strictCostEnforcementForVAP: cfg.strictCostEnforcementForVAP } : {}),
    ...(cfg.strictCostEnforcementForWebhooks !== undefined
      ? { strictCostEnforcementForWebhooks: cfg.strictCostEnforcementForWebhooks }
      : {}),
    ...(cfg.metricsRegistry ? { metricsRegistry: cfg.metricsRegistry } : {}),
    logger,
  });
  const metrics = new RequestMetrics();
  const version = cfg.version ?? serverVersion();
  const shutdown = new AbortController();
  // Every open watch listens for shutdown: no listener limit.
  setMaxListeners(0, shutdown.signal);
  const serviceAccountAuth = sa
    ? newServiceAccountAuthenticators(
        sa,
        tokenGetter,
        storageSecretLabeler(() => registry.stores),
      )
    : [];
  const authenticator = withLoopback
    ? newAuthenticator({
        tokens: withLoopback.tokens,
        clientCA: cfg.clientCA !== undefined,
        anonymous: cfg.anonymousAuth ?? true,
        ...(sa ? { apiAudiences: sa.apiAudiences } : {}),
        serviceAccount: serviceAccountAuth,
      })
    : undefined;
  const openapi = openAPIFor(resources, version, crds?.openapi);
  // Upstream's kube-controller-manager runs this controller; its CEL type checker is the apiserver's here.
  const policyStatus = resources.some((r) => r.storagePath === validatingAdmissionPolicyStoragePath)
    ? startPolicyStatusController({
        store: cfg.store,
        policies: registry.storeFor({ storagePath: validatingAdmissionPolicyStoragePath }),
        served,
        openAPIV3: () => openapi.documents.v3,
        logger,
      })
    : undefined;
  const mux = nonResourceMux({
    health: apiserverHealthChecks(cfg.store, cfg.postStartHooks ?? [], shutdown.signal),
    version,
    metrics,
    metricsRegistry: cfg.metricsRegistry,
    store: cfg.store,
    openapi,
    resources,
    served,
    reviews,
    apf: cfg.flowControl?.apf?.config,
    // The JWKS URI defaults to this server's address (upstream's ExternalAddress).
    openIDMetadata: sa
      ? openIDMetadataOf(sa, () =>
          loopback.address
            ? `${loopback.address.host.includes(":") ? `[${loopback.address.host}]` : loopback.address.host}:${loopback.address.port}`
            : undefined,
        )
      : undefined,
  });
  const { authorizer, authorizerRuleResolver } = cfg;
  const apis = resourceHandler({
    resources,
    reviews,
    registry,
    authorizer,
    authorizerRuleResolver,
    authorizeWithSelectors: cfg.authorizeWithSelectors,
    authenticator,
    ...(sa ? { apiAudiences: sa.apiAudiences } : {}),
    shutdown: shutdown.signal,
    ...(crds ? { customResources: crds.handler } : {}),
    admission: admission.chain,
  });
  const handler = buildHandlerChain(
    {
      authenticator,
      authorizer,
      authorizeWithSelectors: cfg.authorizeWithSelectors ?? true,
      audit: cfg.audit,
      flowControl: cfg.flowControl,
      metrics,
      requestTimeoutMs: cfg.requestTimeoutMs,
      logger: cfg.logger ?? noopLogger,
    },
    director(mux, apis),
  );
  return { registry, handler, metrics, shutdown, crds, admission, policyStatus, loopback };
}

/** The OpenAPI documents of the served resources. */
function openAPIFor(
  table: readonly ResourceDef[],
  version: VersionInfo,
  customResources?: OpenAPISpecSource,
): ReturnType<typeof createOpenAPIHandlers> {
  return createOpenAPIHandlers(
    table
      .map((r) => ({
        group: r.group,
        version: r.version,
        kind: r.kind,
        resource: r.resource,
        namespaced: r.namespaced,
        schema: r.schema,
        // The OpenAPI paths document get/put/patch subresources (not namespaces/finalize).
        subresources: r.subresources.filter((s) => r.subresourceVerbs?.[s] === undefined),
        ...(r.subresourceCreate ? { createSubresources: r.subresourceCreate } : {}),
        verbs: r.verbs,
      }))
      .filter((r) => r.schema !== undefined),
    { version: version.gitVersion },
    customResources,
  );
}
