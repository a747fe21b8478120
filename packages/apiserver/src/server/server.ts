/**
 * The apiserver's HTTP(S) front: authentication, routing of non-resource paths (health, version,
 * metrics, discovery, OpenAPI) and resource paths, metrics and a structured log line per request.
 * The server never crashes on bad input: every failure becomes a Status response.
 */
import { createServer as createHTTPServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHTTPSServer } from "node:https";
import { setMaxListeners } from "node:events";
import type { AddressInfo } from "node:net";
import { StatusError } from "@servicenet/api";
import type { Store } from "../storage/index.ts";
import type { TLSSocket } from "node:tls";
import type { UserInfo } from "../authentication/user/user.ts";
import type { AuthRequest, Authenticator } from "../authentication/authenticator/interfaces.ts";
import { newAuthenticator } from "../authentication/authenticator-config.ts";
import { ImpersonationRequestError, impersonate } from "./filters/impersonation.ts";
import { auditFields, type AuditInfo } from "./audit.ts";
import { auditFinishedRequest, captureResponseBody, initAuditID, statusOfBody, type AuditConfig } from "../audit/audit-request.ts";
import { nowMicros } from "../audit/request.ts";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroupDoc,
  apiGroupList,
  apiResourceList,
  legacyAPIVersions,
  wantsAggregated,
} from "./discovery.ts";
import { parseBody } from "./codec.ts";
import { endWith, internalErrorText, readBody, requestBodies, send, sendError } from "./http.ts";
import { writeSerialized } from "./response-compression.ts";
import { apiserverHealthChecks, isHealthPath, serveHealth, type HealthChecker } from "./healthz.ts";
import { configureServing, httpServerOptions, type ServingOptions } from "./serving.ts";
import { RequestMetrics, type RequestLabels } from "./metrics.ts";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { bodyFormat, negotiateOutput, type OutputFormat } from "./negotiation.ts";
import { createOpenAPIHandlers } from "./openapi/index.ts";
import { initServiceStorage, type Allocators } from "../registry/core/service/index.ts";
import { newRESTStorage, type RESTStorage } from "./rest-storage.ts";
import type { AuthorizationRuleResolver, Authorizer, RuleResolver } from "../authorization/authorizer/interfaces.ts";
import { parseRequestInfo, type RequestInfo } from "./request-info.ts";
import { authorizeRequest } from "./filters/authorization.ts";
import { findResource, resourceTable, type ResourceDef } from "./resources.ts";
import { handleResource } from "./rest.ts";
import { methodNotAllowed, routeNotFound } from "./routes.ts";
import { queryBool } from "./query-conversion.ts";
import { answerReview, findReview, reviewTable, type ReviewDef } from "./reviews.ts";
import { serverVersion, type VersionInfo } from "./version.ts";
import { usagePage, usagePagePath } from "./usage-page.ts";
import { crdStoragePath, startCustomResourceServer } from "../apiextensions/apiserver/apiserver.ts";

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
  /** The server's JSON log lines (errors, and a line per request unless `logRequests` is false); silent when omitted. */
  log?: (line: string) => void;
  /**
   * Whether `log` gets a line per request (upstream's httplog, at V(3)); default true. `servicenet up`
   * below `-v 3` turns it off, so no request pays for a line the verbosity filter would drop.
   */
  logRequests?: boolean;
  /** Component metrics (allocators, repair loops) served on /metrics after the request metrics. */
  metricsRegistry?: MetricsRegistry;
  /** Non-watch requests still unanswered after this get 504 (upstream --request-timeout, 60 s). */
  requestTimeoutMs?: number;
  /** Header and TLS handshake deadlines (upstream's 32 s ReadHeaderTimeout by default). */
  serving?: ServingOptions;
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

const alwaysAllow: Authorizer = { authorize: () => ({ decision: "Allow", reason: "" }) };

const notFound = (): StatusError => new StatusError("NotFound", "the server could not find the requested resource");

interface Routed {
  code: number;
  labels: RequestLabels;
}

/** Starts the server and resolves once it listens. */
export async function startServer(cfg: APIServerConfig): Promise<RunningServer> {
  const table = cfg.resources ?? resourceTable;
  const reviews = cfg.reviews ?? reviewTable;
  const registry = newRESTStorage(cfg.store, table, cfg.serviceAllocators, {
    ...(cfg.authorizer ? { authorizer: cfg.authorizer } : {}),
    ...(cfg.ruleResolver ? { ruleResolver: cfg.ruleResolver } : {}),
  });
  // Before the first request: an early create must not get an IP a stored Service holds.
  await initServiceStorage(registry.stores);
  // The apiextensions-apiserver delegate: custom resources, and their discovery, follow the CRDs.
  const crds = table.some((r) => r.storagePath === crdStoragePath)
    ? startCustomResourceServer({
        store: cfg.store,
        crdStore: registry.storeFor({ storagePath: crdStoragePath }),
        newStore: (d) => registry.newStore(d),
        ...(cfg.log ? { log: cfg.log } : {}),
      })
    : undefined;
  await crds?.synced;
  const served = (): readonly ResourceDef[] => (crds ? [...table, ...crds.handler.resources()] : table);
  const metrics = new RequestMetrics();
  const version = cfg.version ?? serverVersion();
  const openapi = createOpenAPIHandlers(
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
        verbs: r.verbs,
      }))
      .filter((r) => r.schema !== undefined),
    { version: version.gitVersion },
  );
  const shutdown = new AbortController();
  // Every open watch listens for shutdown: no listener limit.
  setMaxListeners(0, shutdown.signal);
  const health = apiserverHealthChecks(cfg.store, cfg.postStartHooks ?? [], shutdown.signal);

  const authenticator = cfg.tokens
    ? newAuthenticator({ tokens: cfg.tokens, clientCA: cfg.clientCA !== undefined, anonymous: cfg.anonymousAuth ?? true })
    : undefined;

  const route = async (req: IncomingMessage, res: ServerResponse, url: URL, audit: AuditInfo): Promise<Routed> => {
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const labels: RequestLabels = { verb: req.method ?? "", group: "", version: "", resource: "", subresource: "", scope: "" };
    // The request info, parsed once for authorization and routing (a trailing slash changes no
    // segment); an invalid escape is thrown where the first of them asks, with this path.
    let parsed: { info: RequestInfo | undefined } | { error: unknown } | undefined;
    const requestInfo = (): RequestInfo | undefined => {
      if (parsed === undefined) {
        try {
          parsed = { info: parseRequestInfo(path, req.method ?? "GET", url.searchParams) };
        } catch (error) {
          parsed = { error };
        }
      }
      if ("error" in parsed) throw parsed.error;
      return parsed.info;
    };
    // upstream's handler chain: authentication, impersonation, then authorization, for every path.
    let user = authenticator ? await authenticate(authenticator, req, cfg.log) : undefined;
    audit.user = user;
    if (user !== undefined && Object.keys(req.headers).some((h) => h.startsWith("impersonate-"))) {
      // Without an authorizer everything is allowed (AlwaysAllow), impersonation too.
      try {
        user = await impersonate(cfg.authorizer ?? alwaysAllow, user, req.headersDistinct);
      } catch (e) {
        if (!(e instanceof ImpersonationRequestError)) throw e;
        return { code: internalErrorText(res, req.url ?? "", e), labels };
      }
      audit.impersonatedUser = user;
    }
    try {
      await authorizeRequest(cfg.authorizer, user, req.method ?? "GET", url.pathname, url.searchParams, requestInfo, (a) => {
        audit.annotations = { ...audit.annotations, ...a };
      });
    } catch (e) {
      // The audit record of a refused request still names the object it was about.
      const refused = requestInfo();
      if (refused && refused.resource !== "") audit.info = refused;
      throw e;
    }
    if (isHealthPath(path)) {
      const h = await serveHealth(health, path, url.searchParams);
      if (h === undefined) throw notFound();
      return { code: text(res, h.code, h.body), labels };
    }
    if (path === "/version") return { code: json(res, version), labels };
    if (path === "/metrics")
      return {
        code: text(res, 200, metrics.render() + (cfg.metricsRegistry?.render() ?? ""), "text/plain; version=0.0.4; charset=utf-8"),
        labels,
      };
    if (path === usagePagePath)
      return { code: text(res, 200, await usagePage(cfg.store, url.searchParams.get("name") ?? ""), "text/html; charset=utf-8"), labels };
    if (path.startsWith("/openapi/")) {
      const r = openapi.handle(req.url ?? path, req.headers.accept, req.headers["if-none-match"]);
      if (r === undefined) throw notFound();
      endWith(res, r.status, { ...r.headers }, r.body);
      return { code: r.status, labels };
    }
    if (path === "/api" || path === "/apis") {
      const agg = wantsAggregated(req.headers.accept);
      if (agg) {
        writeSerialized(
          res,
          200,
          { "Content-Type": aggregatedContentType(agg), Vary: "Accept" },
          JSON.stringify(aggregatedDiscovery(served(), path === "/api", agg, reviews)),
        );
        return { code: 200, labels };
      }
      return { code: json(res, path === "/api" ? legacyAPIVersions() : apiGroupList(served(), reviews)), labels };
    }
    const parts = path.split("/").filter((p) => p !== "");
    if (parts[0] === "api" && parts.length === 2)
      return { code: json(res, apiResourceList(served(), "", parts[1]!, reviews) ?? fail(notFound())), labels };
    if (parts[0] === "apis" && parts.length === 2)
      return { code: json(res, apiGroupDoc(served(), parts[1]!, reviews) ?? fail(notFound())), labels };
    if (parts[0] === "apis" && parts.length === 3)
      return { code: json(res, apiResourceList(served(), parts[1]!, parts[2]!, reviews) ?? fail(notFound())), labels };
    const info = requestInfo();
    if (!info) throw notFound();
    audit.info = info;
    const review = findReview(info.group, info.version, info.resource, info.namespace !== undefined, reviews);
    // A review is one POST route on its collection path.
    if (review && (info.name !== "" || info.watchPath)) throw routeNotFound();
    if (review && info.verb !== "create") throw methodNotAllowed();
    if (review) {
      const format = bodyFormat(req.headers["content-type"]);
      const answer = await answerReview(review, parseBody(await readBody(req), format), {
        user,
        namespace: info.namespace ?? "",
        authorizer: cfg.authorizer,
        ruleResolver: cfg.authorizerRuleResolver,
        authenticator,
      });
      send(res, 201, answer);
      const scope = info.namespace !== undefined ? "namespace" : "cluster";
      return { code: 201, labels: { ...labels, verb: "POST", group: info.group, version: info.version, resource: info.resource, scope } };
    }
    const builtin = findResource(info.group, info.version, info.resource, table);
    // No built-in route matched: the chain's delegate, the custom-resource handler, tries.
    const custom = builtin ? undefined : crds?.handler.lookup(info.group, info.version, info.resource);
    const def = builtin ?? custom?.def;
    // Inside a served group version go-restful answers an unknown path; elsewhere the not-found handler.
    if (!def) throw apiResourceList(table, info.group, info.version, reviews) !== undefined ? routeNotFound() : notFound();
    Object.assign(labels, {
      verb: metricVerb(info.verb, req.method ?? ""),
      group: info.group,
      version: info.version,
      resource: info.resource,
      subresource: info.subresource,
      scope: info.name !== "" ? "resource" : info.namespace !== undefined ? "namespace" : "cluster",
    });
    const format: OutputFormat = negotiateOutput(req.headers.accept);
    const code = await handleResource({
      req,
      res,
      info,
      def,
      store: custom?.store ?? registry.storeFor(def),
      query: url.searchParams,
      format,
      shutdown: shutdown.signal,
      ...(user ? { user } : {}),
    });
    return { code, labels };
  };

  const requestLog = cfg.logRequests === false ? undefined : cfg.log;

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      url = new URL("http://localhost/");
    }
    const audit: AuditInfo = {};
    const auditID = initAuditID(req, res);
    const receivedMicros = cfg.audit ? nowMicros() : 0;
    let responseBody: (() => Buffer) | undefined;
    const finish = (code: number, labels: RequestLabels): void => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observe(labels, code, seconds);
      if (cfg.audit) {
        const body = responseBody?.();
        auditFinishedRequest(cfg.audit, {
          auditID,
          req,
          info: audit,
          receivedMicros,
          longRunning: isWatch,
          code,
          status: statusOfBody(code, body),
          requestBody: requestBodies.get(req),
          responseBody: body,
        });
      }
      requestLog?.(
        JSON.stringify({
          ts: new Date().toISOString(),
          verb: labels.verb,
          uri: req.url,
          code,
          latencyMs: Math.round(seconds * 1e4) / 10,
          userAgent: req.headers["user-agent"] ?? "",
          ...auditFields(audit, req.method ?? "", url.pathname, code),
        }),
      );
    };
    // Upstream's timeout filter: a stuck storage call must not hang the client forever. The
    // request itself goes on; its late answer is dropped (the response is already sent).
    let timedOut = false;
    const isWatch = (queryBool(url.searchParams, "watch") ?? false) || url.pathname.includes("/watch/");
    // A watch's stream is not an object to record.
    if (cfg.audit && !isWatch) responseBody = captureResponseBody(res);
    const timer = isWatch
      ? undefined
      : setTimeout(() => {
          if (res.headersSent) return;
          timedOut = true;
          // A body still arriving (or stalled) cannot be told apart from the next request on
          // this connection, so the answer closes it, as net/http does after a handler returns
          // with the body unread (`chunkWriter.writeHeader`: closeAfterReply).
          if (!req.complete) closeAfterReply(res);
          const code = sendError(
            res,
            StatusError.timeout("Timeout: request did not complete within requested timeout - context deadline exceeded"),
          );
          finish(code, { verb: req.method ?? "", group: "", version: "", resource: "", subresource: "", scope: "" });
        }, cfg.requestTimeoutMs ?? 60_000);
    route(req, res, url, audit).then(
      (r) => {
        clearTimeout(timer);
        if (!timedOut) finish(r.code, r.labels);
      },
      (e: unknown) => {
        clearTimeout(timer);
        if (timedOut) return;
        const wantsYAML = (req.headers.accept ?? "").startsWith("application/yaml");
        const code = sendError(res, e, wantsYAML ? "yaml" : "json");
        if (!(e instanceof StatusError))
          cfg.log?.(
            JSON.stringify({ ts: new Date().toISOString(), level: "error", uri: req.url, error: e instanceof Error ? e.stack : String(e) }),
          );
        finish(code, { verb: req.method ?? "", group: "", version: "", resource: "", subresource: "", scope: "" });
      },
    );
  };

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
        registry.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * WithAuthentication (endpoints/filters/authentication.go): the request's user, or a 401 when no
 * authenticator claims it or one rejects its credential. The Authorization header is not passed on.
 */
async function authenticate(a: Authenticator, req: IncomingMessage, log?: (line: string) => void): Promise<UserInfo> {
  const socket = req.socket as Partial<TLSSocket>;
  const cert = socket.getPeerCertificate?.(true);
  const r: AuthRequest = {
    headers: req.headers,
    ...(cert && Object.keys(cert).length > 0
      ? {
          peerCertificate: cert,
          peerVerified: socket.authorized === true,
          ...(socket.authorizationError ? { peerVerifyError: String(socket.authorizationError) } : {}),
        }
      : {}),
  };
  let resp;
  try {
    resp = await a.authenticateRequest(r);
  } catch (e) {
    log?.(
      JSON.stringify({
        ts: new Date().toISOString(),
        level: "error",
        msg: "Unable to authenticate the request",
        err: (e as Error).message,
      }),
    );
    throw StatusError.unauthorized();
  }
  if (resp === undefined) throw StatusError.unauthorized();
  delete req.headers.authorization;
  return resp.user;
}

/**
 * `Connection: close` on the answer: node then shuts the connection once the answer is written
 * (`socket.destroySoon`), whatever the peer does.
 */
function closeAfterReply(res: ServerResponse): void {
  res.setHeader("Connection", "close");
}

function fail(e: StatusError): never {
  throw e;
}

function json(res: ServerResponse, body: unknown): number {
  send(res, 200, body);
  return 200;
}

function text(res: ServerResponse, code: number, body: string, contentType = "text/plain; charset=utf-8"): number {
  endWith(res, code, { "Content-Type": contentType, "X-Content-Type-Options": "nosniff" }, body);
  return code;
}

/** Upstream's metric verb: LIST and WATCH split from GET, APPLY from PATCH. */
function metricVerb(verb: string, method: string): string {
  if (verb === "list") return "LIST";
  if (verb === "watch") return "WATCH";
  return method;
}
