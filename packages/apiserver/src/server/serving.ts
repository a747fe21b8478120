/**
 * The connection edge of kube-apiserver's secure serving (`staging/src/k8s.io/apiserver/pkg/server/
 * secure_serving.go`, `SecureServingInfo.Serve`) on node:http(s), with Go's net/http behaviour
 * where node's differs:
 * - `ReadHeaderTimeout: 32 * time.Second`: a request's headers must arrive within it, else the
 *   connection is closed without an answer (net/http `conn.serve`: a read timeout is not replied to).
 * - the TLS handshake has an absolute deadline, net/http's `Server.tlsHandshakeTimeout` (the
 *   smallest of ReadHeaderTimeout, ReadTimeout, WriteTimeout: 32 s here); node's own
 *   `handshakeTimeout` is an idle timer that a client trickling bytes resets forever.
 * - plain HTTP on the TLS port gets net/http's `HTTP/1.0 400 Bad Request` and a close
 *   (`conn.serve`, `tlsRecordHeaderLooksLikeHTTP`) instead of a dropped connection.
 * - handshakes start a few per event-loop iteration (handshake-gate.ts), as Go's scheduler
 *   interleaves the connections' handshakes with the requests of those already connected.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { HandshakeGate } from "./handshake-gate.ts";

export interface ServingOptions {
  /** upstream `ReadHeaderTimeout`, 32 s. */
  readHeaderTimeoutMs?: number;
  /** The TLS handshake's deadline; default net/http's: the ReadHeaderTimeout. */
  tlsHandshakeTimeoutMs?: number;
  /** TLS handshakes started per event-loop iteration (handshake-gate.ts); default 8. */
  tlsHandshakesPerTurn?: number;
}

export const defaultReadHeaderTimeoutMs = 32_000;

/** net/http's answer to a plain HTTP request on a TLS listener, byte for byte. */
export const plainHTTPOnTLSResponse = "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n";

/**
 * Options for node's createServer: node checks header deadlines every `connectionsCheckingInterval`
 * (30 s by default, which would let a 32 s deadline run to 62 s), so check a few times per deadline.
 */
export function httpServerOptions(o: ServingOptions): { connectionsCheckingInterval: number } {
  const header = o.readHeaderTimeoutMs ?? defaultReadHeaderTimeoutMs;
  return { connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(header / 4))) };
}

/** Applies the header and handshake deadlines and, for TLS, the plain-HTTP answer. */
export function configureServing(server: Server, tls: boolean, o: ServingOptions): void {
  const header = o.readHeaderTimeoutMs ?? defaultReadHeaderTimeoutMs;
  server.headersTimeout = header;
  // Before the generic clientError handler: net/http closes on a header read timeout without
  // replying (node would send 408; the destroyed socket makes the other handler skip it).
  server.prependListener("clientError", (e: NodeJS.ErrnoException, socket) => {
    if (e.code === "ERR_HTTP_REQUEST_TIMEOUT") socket.destroy();
  });
  if (tls) guardTLSConnections(server, o.tlsHandshakeTimeoutMs ?? header, new HandshakeGate(o.tlsHandshakesPerTurn));
}

/** The five bytes net/http's `tlsRecordHeaderLooksLikeHTTP` recognises. */
const httpRecordHeaders = new Set(["GET /", "HEAD ", "POST ", "PUT /", "OPTIO"]);

/**
 * Wraps the TLS server's connection listener: each raw connection gets an absolute handshake
 * deadline, and its first five bytes (a TLS record header) are looked at before TLS sees them;
 * then `gate` hands it to TLS in its turn.
 */
function guardTLSConnections(server: Server, handshakeTimeoutMs: number, gate: HandshakeGate): void {
  const tlsListeners = server.listeners("connection") as ((s: Socket) => void)[];
  server.removeAllListeners("connection");
  // Keyed by the peer's address and port (unique among live connections to this listener): the
  // TLS socket of a raw connection has no documented link back to it.
  const deadlines = new Map<string, NodeJS.Timeout>();
  const peer = (s: Socket): string => `${s.remoteAddress ?? ""}|${s.remotePort ?? ""}`;
  server.on("secureConnection", (s: TLSSocket) => {
    clearTimeout(deadlines.get(peer(s)));
    deadlines.delete(peer(s));
  });
  server.on("connection", (raw: Socket) => {
    const key = peer(raw);
    // Go's handshake read fails at the deadline and the connection is closed, nothing written.
    deadlines.set(
      key,
      setTimeout(() => raw.destroy(), handshakeTimeoutMs),
    );
    raw.once("close", () => {
      clearTimeout(deadlines.get(key));
      deadlines.delete(key);
    });
    const onError = (): void => {
      raw.destroy();
    };
    raw.on("error", onError);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      // crypto/tls reads a whole record header before it judges the first record.
      if (head.length < 5) return;
      raw.off("data", onData);
      if (httpRecordHeaders.has(head.subarray(0, 5).toString("latin1"))) {
        // Keep reading (and dropping) what follows so the peer's close is seen; the handshake
        // deadline ends a peer that never closes.
        raw.resume();
        raw.end(plainHTTPOnTLSResponse);
        return;
      }
      raw.pause();
      raw.unshift(head);
      gate.admit(() => {
        // Closed while it waited: nothing to hand over (the close cleared its deadline).
        if (raw.destroyed) return;
        raw.off("error", onError);
        // node's TLS socket takes the bytes back from the raw socket's buffer (`initRead`).
        for (const l of tlsListeners) l.call(server, raw);
      });
    };
    raw.on("data", onData);
  });
}
