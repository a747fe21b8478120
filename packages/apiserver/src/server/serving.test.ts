/**
 * The connection edge, as kube-apiserver's Go net/http server behaves: plain HTTP on the TLS port
 * gets net/http's 400 text, a TLS handshake or a header block that trickles in is cut at its
 * deadline (upstream ReadHeaderTimeout; the options make them short here), and a request whose
 * body stalls gets its 504 and then its connection closed.
 */
import { connect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../storage/index.ts";
import { startServer, type APIServerConfig, type RunningServer } from "./server.ts";
import { defaultReadHeaderTimeoutMs, plainHTTPOnTLSResponse } from "./serving.ts";
import { ensureServingCerts } from "./tls.ts";

/** Everything the server sends until it closes the connection. */
function collect(sock: Socket): Promise<{ data: string; error?: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    sock.on("data", (c: Buffer) => chunks.push(c));
    sock.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    sock.on("close", () => resolve({ data: Buffer.concat(chunks).toString("latin1"), ...(error ? { error } : {}) }));
  });
}

/** Writes one byte of `bytes` every 20 ms until the socket closes (a slowloris client). */
function trickle(sock: Socket, bytes: Buffer): void {
  let i = 0;
  const t = setInterval(() => {
    if (sock.destroyed || i >= bytes.length) return clearInterval(t);
    sock.write(bytes.subarray(i, ++i));
  }, 20);
  sock.once("close", () => clearInterval(t));
}

describe("serving", () => {
  let server: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await server?.close();
    await store?.close();
    server = undefined;
  });

  const start = async (cfg: Partial<APIServerConfig> = {}, tls = true): Promise<RunningServer> => {
    store = await createStore({ backend: "memory" });
    const certs = ensureServingCerts(join(tmpdir(), "servicenet-test-pki"));
    server = await startServer({ store, port: 0, ...(tls ? { tls: { key: certs.key, cert: certs.cert } } : {}), ...cfg });
    return server;
  };

  it.each([
    "GET /api HTTP/1.1\r\nHost: x\r\n\r\n",
    "POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
    "HEAD /healthz HTTP/1.0\r\n\r\n",
  ])("answers plain HTTP on the TLS port as net/http does: %j", async (request) => {
    const s = await start();
    const sock = connect(s.port, "127.0.0.1");
    const got = collect(sock);
    sock.write(request);
    expect((await got).data).toBe(plainHTTPOnTLSResponse);
    expect(plainHTTPOnTLSResponse).toBe("HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n");
  });

  it("still serves TLS clients after the first-bytes check", async () => {
    const s = await start();
    const sock = tlsConnect({ port: s.port, host: "127.0.0.1", rejectUnauthorized: false });
    const got = collect(sock);
    sock.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const { data } = await got;
    expect(data).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(data).toMatch(/\r\n\r\n(2\r\n)?ok/);
  });

  it("completes every handshake of connections opened at once, a few per event-loop iteration", async () => {
    const s = await start({ serving: { tlsHandshakesPerTurn: 2 } });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => {
        const sock = tlsConnect({ port: s.port, host: "127.0.0.1", rejectUnauthorized: false });
        const got = collect(sock);
        sock.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        return got;
      }),
    );
    expect(answers.filter((a) => /^HTTP\/1\.1 200 OK\r\n/.test(a.data))).toHaveLength(40);
  });

  it("cuts a TLS handshake that trickles in at the handshake deadline", async () => {
    const s = await start({ serving: { readHeaderTimeoutMs: 300 } });
    const sock = connect(s.port, "127.0.0.1");
    const got = collect(sock);
    // A TLS handshake record header announcing a long ClientHello, then its body a byte at a time:
    // each byte resets node's own (idle) handshake timer.
    trickle(sock, Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]), Buffer.alloc(512, 1)]));
    expect((await got).data).toBe("");
  });

  it("closes, without an answer, a connection whose headers trickle in past ReadHeaderTimeout", async () => {
    const s = await start({ serving: { readHeaderTimeoutMs: 300 } }, false);
    const sock = connect(s.port, "127.0.0.1");
    const got = collect(sock);
    sock.write("GET /healthz HTTP/1.1\r\n");
    trickle(sock, Buffer.from(`X-Slow: ${"a".repeat(500)}\r\n\r\n`));
    expect((await got).data).toBe("");
  });

  it("defaults the header and handshake deadline to upstream's 32 s", async () => {
    const s = await start();
    expect(defaultReadHeaderTimeoutMs).toBe(32_000);
    expect(s.server.headersTimeout).toBe(32_000);
  });

  it("answers a request whose body stalls with the request timeout's 504, then closes the connection", async () => {
    const s = await start({ requestTimeoutMs: 300 }, false);
    // A client that keeps its side open after the server's FIN: the server must still let go.
    const sock = connect({ port: s.port, host: "127.0.0.1", allowHalfOpen: true });
    const chunks: Buffer[] = [];
    sock.on("data", (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => sock.once("end", resolve));
    sock.write('POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metadata":');
    await ended;
    const data = Buffer.concat(chunks).toString("latin1");
    expect(data).toMatch(/^HTTP\/1\.1 504 Gateway Timeout\r\n/);
    expect(data).toMatch(/\r\nConnection: close\r\n/i);
    expect(data).toContain('"reason":"Timeout"');
    const connections = (): Promise<number> =>
      new Promise((resolve, reject) => s.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    while ((await connections()) > 0) await new Promise((r) => setTimeout(r, 50));
    sock.destroy();
  });
});
