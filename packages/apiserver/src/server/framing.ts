/** Response framing as Go's net/http does it: Content-Length for short bodies, chunked for long ones. */
import type { ServerResponse } from "node:http";

/**
 * Go's net/http buffers a handler's first 2048 bytes (server.go bufferBeforeChunkingSize): a
 * response that fits when the handler returns gets a Content-Length, a longer one is chunked.
 * kube-apiserver writes each body in one go, so its small answers (a created Service, a Status)
 * carry Content-Length and its lists are chunked; node would chunk them all once writeHead ran.
 */
export const bufferBeforeChunkingSize = 2048;

/** net/http's bodyAllowedForStatus: 1xx, 204 and 304 answers carry no body, and no Content-Length is set for them. */
const bodyAllowedForStatus = (code: number): boolean => !((code >= 100 && code <= 199) || code === 204 || code === 304);

/** Writes the status, `headers` and the whole `body`, framed as Go's net/http frames it. */
export function endWith(res: ServerResponse, code: number, headers: Record<string, string | string[]>, body: string | Buffer): void {
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (bodyAllowedForStatus(code) && length <= bufferBeforeChunkingSize && !("Transfer-Encoding" in headers))
    headers["Content-Length"] = String(length);
  res.writeHead(code, headers);
  res.end(body);
}
