/**
 * TLS handshakes in bounded batches per iteration of the event loop. kube-apiserver runs each
 * connection's handshake on the connection's own goroutine (net/http `conn.serve` calling
 * `tls.Conn.HandshakeContext`), which Go's scheduler interleaves with the goroutines serving
 * requests. Node does a server handshake's work (the key exchange and the signature of the
 * ServerHello) synchronously when the TLS socket first reads the ClientHello: 1,000 connections
 * opened at once were 1,000 handshakes in one or two iterations, and a request on an existing
 * keep-alive connection (an admin's) waited for all of them. Here at most `perTurn` handshakes
 * start per iteration; the connections' handshake deadline (serving.ts) still counts from accept.
 */

/** Handshakes started per event-loop iteration: a few milliseconds of CPU with a P-256 key. */
export const defaultTLSHandshakesPerTurn = 8;

/** Starts queued handshakes, `perTurn` per iteration of the event loop, in arrival order. */
export class HandshakeGate {
  readonly #perTurn: number;
  readonly #queue: (() => void)[] = [];
  #scheduled = false;

  constructor(perTurn = defaultTLSHandshakesPerTurn) {
    this.#perTurn = Math.max(1, Math.floor(perTurn));
  }

  /** Runs `start` (which hands the connection to TLS) in the check phase of this or a later iteration. */
  admit(start: () => void): void {
    this.#queue.push(start);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#drain);
    }
  }

  /** Connections waiting for their handshake to start. */
  get waiting(): number {
    return this.#queue.length;
  }

  readonly #drain = (): void => {
    const batch = this.#queue.splice(0, this.#perTurn);
    // Queued from inside a check-phase callback, the next batch runs in the next iteration.
    if (this.#queue.length > 0) setImmediate(this.#drain);
    else this.#scheduled = false;
    for (const start of batch) start();
  };
}
