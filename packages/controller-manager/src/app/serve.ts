/**
 * The controller-manager's HTTPS endpoints, as kube-controller-manager (controller-manager
 * `app/serve.go` `NewBaseHandler` and `BuildHandlerChain`, apiserver `SecureServingInfo.Serve`):
 * `/healthz` (with one sub-path per check) and `/metrics`, behind delegated authentication and
 * authorization. kube-controller-manager serves no `/readyz` or `/livez`: they are 404 here too.
 */
import { createServer, type Server } from "node:https";
import { listenLikeGo } from "@servicenet/component-base/net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import type { KubeConfig } from "@kubernetes/client-node";
import { StatusError } from "@servicenet/api";
import { generateSelfSignedCertKey } from "@servicenet/client/util/cert";
import { serveHealth, type HealthChecker } from "@servicenet/component-base/healthz";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { delegatingAuthenticator, delegatingAuthorizer, type UserInfo } from "./delegating-auth.ts";
import type { ServingOptions } from "./options-serving.ts";

/**
 * upstream `controllerhealthz.MutableHealthzHandler`: the `/healthz` checks, to which each started
 * controller adds its own. Without any, `/healthz` serves `ping`.
 */
export class MutableHealthz {
  readonly #checks: HealthChecker[] = [];

  constructor(...checks: HealthChecker[]) {
    this.#checks.push(...checks);
  }

  addHealthChecker(...checks: HealthChecker[]): void {
    this.#checks.push(...checks);
  }

  get checks(): readonly HealthChecker[] {
    return this.#checks;
  }
}

export interface ServeDeps {
  health: MutableHealthz;
  metrics: MetricsRegistry;
  /** The --kubeconfig, used when --authentication-kubeconfig / --authorization-kubeconfig are empty. */
  kubeConfig: KubeConfig;
  loadKubeConfig(path: string): KubeConfig;
  logger?: Logger;
}

export interface SecureServer {
  /** `host:port` it listens on. */
  readonly address: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, code: number, contentType: string, body: string): void {
  res.writeHead(code, { "content-type": contentType, "x-content-type-options": "nosniff", "cache-control": "no-cache, private" });
  res.end(body);
}

function sendStatus(res: ServerResponse, err: StatusError): void {
  send(res, err.code, "application/json", `${JSON.stringify(err.status)}\n`);
}

/** The base handler (`NewBaseHandler`): healthz and the registry in Prometheus text; 404 elsewhere. */
async function baseHandler(deps: ServeDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (url.pathname === "/metrics") return send(res, 200, "text/plain; version=0.0.4; charset=utf-8", deps.metrics.render());
  if (url.pathname === "/healthz" || url.pathname.startsWith("/healthz/")) {
    const answer = await serveHealth({ healthz: deps.health.checks }, url.pathname, url.searchParams);
    if (answer !== undefined) return send(res, answer.code, "text/plain; charset=utf-8", answer.body);
  }
  send(res, 404, "text/plain; charset=utf-8", "404 page not found\n");
}

/** The chain (`BuildHandlerChain`): authentication, then authorization, then the base handler. */
function handlerChain(deps: ServeDeps, o: ServingOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const kc = (path: string) => (path === "" ? deps.kubeConfig : deps.loadKubeConfig(path));
  const authenticate = delegatingAuthenticator(kc(o.authenticationKubeconfig));
  const authorize = delegatingAuthorizer(kc(o.authorizationKubeconfig), o.alwaysAllowPaths);
  const log = deps.logger ?? noopLogger;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "https://localhost");
    void (async () => {
      let user: UserInfo;
      try {
        user = await authenticate(req);
      } catch (err) {
        // A token that fails review, or a review that fails, is 401 (upstream's failed handler).
        if (!(err instanceof StatusError)) log.error("Unable to authenticate the request", { err: String(err) });
        return sendStatus(res, StatusError.unauthorized());
      }
      try {
        await authorize(user, (req.method ?? "GET").toLowerCase(), url.pathname);
      } catch (err) {
        if (err instanceof StatusError) return sendStatus(res, err);
        // responsewriters.InternalError.
        return send(res, 500, "text/plain; charset=utf-8", `Internal Server Error: ${JSON.stringify(url.pathname)}: ${String(err)}\n`);
      }
      await baseHandler(deps, req, res, url);
    })().catch((err: unknown) => {
      log.error("request failed", { path: url.pathname, err: String(err) });
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", "Internal Server Error\n");
    });
  };
}

/**
 * Serves on `--bind-address:--secure-port` (nothing with port 0), with the given certificate or a
 * self-signed one for `localhost` and 127.0.0.1 (upstream's `MaybeDefaultWithSelfSignedCerts`).
 */
export async function serveSecurely(o: ServingOptions, deps: ServeDeps): Promise<SecureServer | undefined> {
  if (o.securePort === 0) return undefined;
  const tls =
    o.tlsCertFile !== ""
      ? { cert: readFileSync(o.tlsCertFile, "utf8"), key: readFileSync(o.tlsPrivateKeyFile, "utf8") }
      : generateSelfSignedCertKey("localhost", ["127.0.0.1"]);
  const server: Server = createServer(tls, handlerChain(deps, o));
  try {
    await listenLikeGo(server, o.bindAddress, o.securePort);
  } catch (e) {
    throw new Error(`failed to listen on ${o.bindAddress}:${o.securePort}: ${(e as Error).message}`);
  }
  const a = server.address();
  const address = a !== null && typeof a === "object" ? (a.family === "IPv6" ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`) : "";
  (deps.logger ?? noopLogger).info(`Serving securely on ${address}`);
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
