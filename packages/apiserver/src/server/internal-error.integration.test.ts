/**
 * Plain-text errors and Forbidden messages never look like HTML: upstream's responsewriters run
 * them through a sanitizer escaping `&`, `<` and `>` (InternalError, Forbidden in
 * `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go`).
 */
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

/** One raw HTTP/1.1 exchange over TLS (the request line as written, unescaped); the answer's head and body. */
function raw(url: string, request: string): Promise<{ head: string; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => socket.write(request));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const at = text.indexOf("\r\n\r\n");
      resolve({ head: text.slice(0, at), body: text.slice(at + 4) });
    });
    socket.on("error", reject);
  });
}

describe("error text escaping as upstream's responsewriters", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("the impersonation 500 escapes <, > and & in the request URI and the error", async () => {
    const r = await raw(
      s.api.url,
      `GET /api/v1/namespaces?x=<b>&y=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${s.api.token}\r\nImpersonate-Group: <i>&co\r\n\r\n`,
    );
    expect(r.head).toMatch(/^HTTP\/1\.1 500 /);
    expect(r.head).toContain("Content-Type: text/plain; charset=utf-8");
    expect(r.head).toContain("X-Content-Type-Options: nosniff");
    expect(r.body).toBe(
      'Internal Server Error: "/api/v1/namespaces?x=&lt;b&gt;&amp;y=1": requested [{Group  &lt;i&gt;&amp;co    }] without impersonating a user\n',
    );
  });

  it("a Forbidden message escapes the path it names", async () => {
    const r = await s.request("/x&y", { token: null });
    expect(r.status).toBe(403);
    expect((r.json() as { message: string }).message).toBe('forbidden: User "system:anonymous" cannot get path "/x&amp;y"');
  });
});
