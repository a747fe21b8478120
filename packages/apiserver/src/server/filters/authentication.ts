/**
 * WithAuthentication (staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go): the
 * authenticators name the request's user; a request no authenticator claims, or whose credential
 * one rejects, goes to the failed handler (upstream's Unauthorized, wrapped in the failed
 * authentication audit). The Authorization header is not passed on.
 */
import type { TLSSocket } from "node:tls";
import { StatusError } from "@servicenet/api";
import type { AuthRequest, Authenticator } from "../../authentication/authenticator/interfaces.ts";
import { warningHeader } from "../deprecation.ts";
import { writeError, type Filter, type Handler, type RequestContext } from "./context.ts";

/** genericapifilters.Unauthorized: the 401 Status. */
export const unauthorized: Handler = (ctx) => {
  writeError(ctx, StatusError.unauthorized());
  return Promise.resolve();
};

/**
 * Sets `ctx.user` and goes on, or hands the request to `failed`. Without an authenticator (the
 * in-process tests' servers) there is no user and every request goes on.
 */
export function withAuthentication(authenticator: Authenticator | undefined, failed: Handler = unauthorized): Filter {
  if (authenticator === undefined) return (next) => next;
  return (next) => async (ctx) => {
    let resp;
    try {
      resp = await authenticator.authenticateRequest(authRequest(ctx));
    } catch (e) {
      ctx.logger.error("Unable to authenticate the request", { err: (e as Error).message });
      return failed(ctx);
    }
    if (resp === undefined) return failed(ctx);
    delete ctx.req.headers.authorization;
    ctx.user = resp.user;
    ctx.audit.user = resp.user;
    if (resp.auditAnnotations !== undefined && Object.keys(resp.auditAnnotations).length > 0)
      ctx.audit.annotations = { ...ctx.audit.annotations, ...resp.auditAnnotations };
    // The warning recorder is outside authentication upstream: the response carries them.
    if (resp.warnings !== undefined && resp.warnings.length > 0) ctx.res.setHeader("Warning", resp.warnings.map(warningHeader));
    return next(ctx);
  };
}

/**
 * The connection's client certificate chain, read once per connection: a connection's peer is
 * fixed at its handshake (Go keeps it in the connection's tls.ConnectionState), and node builds
 * the whole chain object anew on every `getPeerCertificate(true)`, a cost every keep-alive
 * request would pay again.
 */
const peerCertificates = new WeakMap<object, ReturnType<TLSSocket["getPeerCertificate"]> | undefined>();

/** `socket`'s peer certificate chain (undefined on plain HTTP), from the connection's cache. */
function peerCertificateOf(socket: Partial<TLSSocket>): ReturnType<TLSSocket["getPeerCertificate"]> | undefined {
  if (peerCertificates.has(socket)) return peerCertificates.get(socket);
  const cert = socket.getPeerCertificate?.(true);
  peerCertificates.set(socket, cert);
  return cert;
}

/** The request's headers and, over TLS, the client certificate the x509 authenticator judges. */
function authRequest(ctx: RequestContext): AuthRequest {
  const socket = ctx.req.socket as Partial<TLSSocket>;
  const cert = peerCertificateOf(socket);
  return {
    headers: ctx.req.headers,
    ...(cert && Object.keys(cert).length > 0
      ? {
          peerCertificate: cert,
          peerVerified: socket.authorized === true,
          ...(socket.authorizationError ? { peerVerifyError: String(socket.authorizationError) } : {}),
        }
      : {}),
  };
}
