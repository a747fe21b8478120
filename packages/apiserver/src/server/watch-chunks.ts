/**
 * The bytes of a watch stream. A watch event that many watchers receive is encoded once
 * (encodedEvent) into one HTTP/1.1 chunk, length line and all, and that one Buffer is written to
 * every watcher's socket: no per-watcher string encoding, chunk framing or OutgoingMessage
 * bookkeeping, which with 500 watchers was most of the server's work per event. Events that reach
 * a watcher in the same tick leave in one write (node's own res.write corks per tick too; upstream's
 * watch handler flushes only when its channel is empty: endpoints/handlers/watch.go ServeHTTP).
 */
import type { ServerResponse } from "node:http";

/** One watch line and the chunk that carries it, sharing one allocation. */
export interface EventChunk {
  /** `<hex length>\r\n<line>\r\n`. */
  frame: Buffer;
  /** The line alone (a view into `frame`). */
  line: Buffer;
}

/** The chunk of one JSON line (the line ends in "\n"). */
export function chunkOf(line: string): EventChunk {
  const length = Buffer.byteLength(line);
  const head = `${length.toString(16)}\r\n`;
  const frame = Buffer.allocUnsafe(head.length + length + 2);
  frame.write(head, 0, "latin1");
  frame.write(line, head.length, "utf8");
  frame.write("\r\n", head.length + length, "latin1");
  return { frame, line: frame.subarray(head.length, head.length + length) };
}

/**
 * A writer of chunks to `res`, whose chunked headers are already sent. Straight to the socket
 * when node frames this response as chunked (its `res.end()` then writes the last chunk after
 * ours, on the same socket, in order); through `res.write` otherwise.
 */
export function chunkWriter(res: ServerResponse): (chunk: EventChunk) => void {
  const socket = res.socket;
  const chunked = (res as { chunkedEncoding?: boolean }).chunkedEncoding === true;
  if (socket === null || !chunked || !res.headersSent) {
    return (chunk) => {
      if (!res.writableEnded) res.write(chunk.line);
    };
  }
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  return (chunk) => {
    if (res.writableEnded || socket.destroyed || !socket.writable) return;
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    socket.write(chunk.frame);
  };
}
