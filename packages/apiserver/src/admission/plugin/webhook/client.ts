/**
 * Posting an AdmissionReview to a webhook (k8s.io/apiserver/pkg/util/webhook/client.go HookClient
 * and the dispatchers' callHook): HTTPS to `clientConfig.url`, or for a `service` reference to
 * `https://<name>.<namespace>.svc:<port><path>` dialled at the address the ServiceResolver gives
 * and verified against that name (HookClient's ServerName and Dial); `caBundle` is trusted, else
 * the system roots. The timeout is enforced here and sent as the `timeout` query parameter, in whole
 * seconds rounded up (the dispatchers' callHook: `r.Timeout` of what is left until the deadline).
 * Connections are kept alive and reused, per plugin, as the rest clients of upstream's
 * ClientManager do (webhook/client.go; client-go's transport keeps up to 25 idle connections per
 * host for 90 s): concurrent calls open connections of their own, later ones reuse them.
 * Failures read as Go's net/http reports them (`Post "<url>": dial tcp ...: connect: connection
 * refused`, `context deadline exceeded`, the resolver's error), since clients match on those texts.
 */
import { request as httpRequest, type Agent as HttpAgent } from "node:http";
import { Agent, request, type RequestOptions } from "node:https";
import type { PeerCertificate } from "node:tls";
import type { WebhookClientConfig } from "@servicenet/api/admissionregistration/v1";
import type { ServiceResolver } from "../../../util/webhook/serviceresolver.ts";
import { joinHostPort, type AuthenticationInfoResolver, type WebhookClientCredentials } from "../../../util/webhook/authentication.ts";
import { stringifyJSON } from "../../../util/json/json.ts";
import { responseErrorMessage } from "./response-error.ts";

/** The largest response read from a webhook (upstream's rest client reads at most this much from a webhook). */
const maxResponseBytes = 3 * 1024 * 1024;

/** The connection pool of one webhook plugin (utilnet.SetTransportDefaults: 25 idle per host, 90 s idle timeout). */
export function newWebhookAgent(): Agent {
  return new Agent({ keepAlive: true, maxFreeSockets: 25, timeout: 90_000 });
}

/** What a failed call says, after `Post "<url>": `. */
function goNetError(
  e: NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string; host?: string; cert?: PeerCertificate },
  host: string,
): string {
  switch (e.code) {
    case "ECONNREFUSED":
      return `dial tcp ${host}: connect: connection refused`;
    case "ENOTFOUND":
      return `dial tcp: lookup ${e.hostname ?? host}: no such host`;
    case "ECONNRESET":
      return `read tcp ${host}: read: connection reset by peer`;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `tls: failed to verify certificate: ${hostnameError(e.host ?? host, e.cert)}`;
    default:
      return e.message;
  }
}

/**
 * crypto/x509 HostnameError.Error: the names the certificate is valid for (its IP or DNS SANs, as
 * the wanted name is an IP or not), and the name wanted.
 */
function hostnameError(want: string, cert: PeerCertificate | undefined): string {
  const sans = (cert?.subjectaltname ?? "").split(", ").filter((x) => x !== "");
  const isIP = /^[\d.]+$|:/.test(want);
  const valid = sans.filter((x) => x.startsWith(isIP ? "IP Address:" : "DNS:")).map((x) => x.slice(x.indexOf(":") + 1));
  if (isIP && valid.length === 0) return `x509: cannot validate certificate for ${want} because it doesn't contain any IP SANs`;
  if (valid.length === 0) return `x509: certificate is not valid for any names, but wanted to match ${want}`;
  return `x509: certificate is valid for ${valid.join(", ")}, not ${want}`;
}

/** Where a webhook is called: the URL (as Go prints it), and for a Service the name it is verified against. */
export interface WebhookTarget {
  url: URL;
  /** The URL as Go's url.URL prints it (an explicit :443 kept). */
  display: string;
  service?: { namespace: string; name: string; port: number; serverName: string };
}

/**
 * The URL a webhook is called at: its url, or the Service's `.svc` name and port, with
 * `?timeout=<n>s` for `timeoutMs` rounded up to whole seconds (none once the deadline has passed).
 */
export function webhookTarget(cc: WebhookClientConfig, timeoutMs: number): WebhookTarget {
  const seconds = Math.ceil(timeoutMs / 1000);
  const timeout = seconds > 0 ? `?timeout=${seconds}s` : "";
  if (cc.url !== undefined) {
    const url = new URL(cc.url);
    if (seconds > 0) url.searchParams.set("timeout", `${seconds}s`);
    return { url, display: url.toString() };
  }
  const s = cc.service ?? { namespace: "", name: "" };
  const port = s.port ?? 443;
  const serverName = `${s.name}.${s.namespace}.svc`;
  // client-go's request path is path.Join("/", apiPath): an empty path is "/".
  const display = `https://${serverName}:${port}${s.path || "/"}${timeout}`;
  return { url: new URL(display), display, service: { namespace: s.namespace, name: s.name, port, serverName } };
}

/** The request options that send to `target` (a Service's resolved address, verified against its `.svc` name). */
async function requestOptions(target: WebhookTarget, resolver: ServiceResolver | undefined): Promise<RequestOptions> {
  const svc = target.service;
  if (svc === undefined) return {};
  if (resolver === undefined) throw new Error(`no service resolver for service "${svc.namespace}/${svc.name}"`);
  const addr = await resolver.resolveEndpoint(svc.namespace, svc.name, svc.port);
  return { hostname: addr.host, port: addr.port, servername: svc.serverName, headers: { Host: `${svc.serverName}:${svc.port}` } };
}

/** The client for a webhook could not be made (HookClient's error: the dispatchers' "could not get REST client"). */
export class RestClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestClientError";
  }
}

/** How a webhook is reached and who the apiserver is to it. */
export interface PostWebhookOptions {
  /** Resolves `clientConfig.service` references. */
  resolver?: ServiceResolver | undefined;
  /** The plugin's connection pool (an http one for an `http:` URL); a fresh connection per call without it. */
  agent?: HttpAgent | undefined;
  /** Client credentials by server name (the plugin's kubeconfig); anonymous without it. */
  auth?: AuthenticationInfoResolver | undefined;
  /** A kubeconfig cluster's `tls-server-name`: the name the server's certificate is verified against. */
  tlsServerName?: string | undefined;
  /** A kubeconfig cluster's `insecure-skip-tls-verify`. */
  insecureSkipTLSVerify?: boolean | undefined;
}

/**
 * HookClient's lookup of credentials: by the URL's host:port (443 when the URL names no port), or
 * by the Service's `name.namespace.svc:port`.
 */
function credentialsFor(target: WebhookTarget, auth: AuthenticationInfoResolver | undefined): WebhookClientCredentials {
  if (auth === undefined) return {};
  try {
    const svc = target.service;
    if (svc !== undefined) return auth.clientConfigForService(svc.name, svc.namespace, svc.port);
    const hostPort = target.url.port === "" ? joinHostPort(target.url.host, "443") : target.url.host;
    return auth.clientConfigFor(hostPort);
  } catch (e) {
    throw new RestClientError((e as Error).message);
  }
}

/** The request options that present `c` (rest.Config's bearer token, basic auth, client certificate, impersonation). */
function credentialOptions(c: WebhookClientCredentials): RequestOptions {
  const headers: Record<string, string> = {};
  if (c.bearerToken !== undefined) headers["Authorization"] = `Bearer ${c.bearerToken}`;
  else if (c.username !== undefined)
    headers["Authorization"] = `Basic ${Buffer.from(`${c.username}:${c.password ?? ""}`).toString("base64")}`;
  if (c.impersonateUser !== undefined) headers["Impersonate-User"] = c.impersonateUser;
  const groups = c.impersonateGroups ?? [];
  return {
    headers: groups.length > 0 ? { ...headers, "Impersonate-Group": groups } : headers,
    ...(c.cert !== undefined ? { cert: c.cert } : {}),
    ...(c.key !== undefined ? { key: c.key } : {}),
  };
}

/**
 * POSTs `body` and resolves with the decoded JSON answer, or fails after `timeoutMs`; rejects with
 * an Error whose message is the Go client's (`Post "<url>": <cause>`), or a RestClientError when
 * no client could be made.
 */
export async function postWebhook(cc: WebhookClientConfig, body: unknown, timeoutMs: number, o: PostWebhookOptions = {}): Promise<unknown> {
  const target = webhookTarget(cc, timeoutMs);
  const creds = credentialOptions(credentialsFor(target, o.auth));
  const prefix = `Post "${target.display}": `;
  let options: RequestOptions;
  try {
    // HookClient's Dial: the resolver's error is the dial's, so the transport's url.Error wraps it.
    options = await requestOptions(target, o.resolver);
  } catch (e) {
    throw new Error(prefix + (e as Error).message);
  }
  const merged: RequestOptions = {
    ...options,
    ...creds,
    headers: { ...options.headers, ...creds.headers },
    ...(o.tlsServerName ? { servername: o.tlsServerName } : {}),
    ...(o.insecureSkipTLSVerify ? { rejectUnauthorized: false } : {}),
  };
  return send(target.url, prefix, { ...merged, agent: o.agent ?? false }, cc, body, timeoutMs);
}

function send(
  url: URL,
  prefix: string,
  options: RequestOptions,
  cc: WebhookClientConfig,
  body: unknown,
  timeoutMs: number,
  retried = false,
): Promise<unknown> {
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, "base64").toString("utf8") : undefined;
  const payload = Buffer.from(stringifyJSON(body));
  return new Promise((resolve, reject) => {
    let settled = false;
    // statusCode: the webhook's own non-2xx answer (the rest client's StatusError carries it).
    const failWith = (message: string, statusCode?: number): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(Object.assign(new Error(message), statusCode !== undefined ? { statusCode } : {}));
    };
    // Transport failures are url.Errors in Go ("Post <url>: ..."); a bad status is the rest client's own error.
    const fail = (msg: string): void => failWith(prefix + msg);
    // A kubeconfig's server may be plain http (the authorization webhook's); admission and
    // conversion webhooks are https by validation.
    const req = (url.protocol === "http:" ? httpRequest : request)(
      url,
      {
        ...options,
        method: "POST",
        headers: { ...options.headers, "Content-Type": "application/json", Accept: "application/json", "Content-Length": payload.length },
        ...(ca !== undefined ? { ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > maxResponseBytes) fail("response body too large");
          else chunks.push(c);
        });
        res.on("error", (e) => fail(e.message));
        res.on("end", () => {
          if (settled) return;
          const text = Buffer.concat(chunks).toString("utf8");
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) return failWith(responseErrorMessage(code, res.headers["content-type"], text), code);
          try {
            const parsed = JSON.parse(text) as unknown;
            settled = true;
            clearTimeout(timer);
            resolve(parsed);
          } catch (e) {
            fail(`invalid character in webhook response: ${(e as Error).message}`);
          }
        });
      },
    );
    const timer = setTimeout(() => fail("context deadline exceeded"), Math.max(timeoutMs, 0));
    const h = String(options.hostname);
    const dialed = options.hostname !== undefined ? `${h.includes(":") ? `[${h}]` : h}:${String(options.port)}` : url.host;
    req.on("error", (e: NodeJS.ErrnoException) => {
      // A kept-alive connection the webhook closed meanwhile: sent again on a new one, as Go's
      // transport retries a request that found its idle connection closed by the server.
      if (req.reusedSocket && !retried && (e.code === "ECONNRESET" || e.code === "EPIPE") && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(send(url, prefix, options, cc, body, timeoutMs, true));
        return;
      }
      fail(goNetError(e, dialed));
    });
    req.end(payload);
  });
}
