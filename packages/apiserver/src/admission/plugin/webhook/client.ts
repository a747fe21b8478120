/**
 * Posting an AdmissionReview to a webhook (k8s.io/apiserver/pkg/util/webhook/client.go and the
 * dispatchers' callHook): HTTPS to `clientConfig.url`, trusting `caBundle` (else the system
 * roots), the timeout sent as the `timeout` query parameter and enforced here. Failures read as Go's
 * net/http reports them (`Post "<url>": dial tcp ...: connect: connection refused`,
 * `context deadline exceeded`), since clients match on those texts.
 *
 * A `service` reference would be reached through the Service's ClusterIP upstream; this apiserver
 * has no route to ClusterIPs, so such a webhook fails as a call failure with a message saying so.
 */
import { request } from "node:https";
import type { WebhookClientConfig } from "@servicenet/api/admissionregistration/v1";

/** The largest response read from a webhook (upstream's rest client reads at most this much from a webhook). */
const maxResponseBytes = 3 * 1024 * 1024;

/** What a failed call says, after `Post "<url>": `. */
function goNetError(e: NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string }, host: string): string {
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
      return `tls: failed to verify certificate: x509: certificate is not valid for ${host.replace(/:\d+$/, "")}`;
    default:
      return e.message;
  }
}

/** The URL a webhook is called at: its url with `?timeout=<n>s`. */
export function webhookURL(cc: WebhookClientConfig, timeoutSeconds: number): URL {
  if (cc.url === undefined) {
    const s = cc.service;
    throw new Error(
      `service reference "${s?.namespace ?? ""}/${s?.name ?? ""}" cannot be reached: this apiserver has no route to Service ClusterIPs; use clientConfig.url`,
    );
  }
  const u = new URL(cc.url);
  u.searchParams.set("timeout", `${timeoutSeconds}s`);
  return u;
}

/**
 * POSTs `body` and resolves with the decoded JSON answer; rejects with an Error whose message is
 * the Go client's (`Post "<url>": <cause>`).
 */
export function postWebhook(cc: WebhookClientConfig, body: unknown, timeoutSeconds: number): Promise<unknown> {
  const url = webhookURL(cc, timeoutSeconds);
  const prefix = `Post "${url.toString()}": `;
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, "base64").toString("utf8") : undefined;
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    let settled = false;
    const failWith = (message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new Error(message));
    };
    // Transport failures are url.Errors in Go ("Post <url>: ..."); a bad status is the rest client's own error.
    const fail = (msg: string): void => failWith(prefix + msg);
    const req = request(
      url,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "Content-Length": payload.length },
        ...(ca !== undefined ? { ca } : {}),
        agent: false,
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
          if (code < 200 || code > 299)
            return failWith(`the server responded with the status code ${code} but did not return more information`);
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
    const timer = setTimeout(() => fail("context deadline exceeded"), timeoutSeconds * 1000);
    req.on("error", (e) => fail(goNetError(e, url.host)));
    req.end(payload);
  });
}
