/**
 * A raw HTTPS client for hostile requests: any method, path bytes, headers and body exactly as
 * given (fetch and client-node normalise or refuse much of what the fuzz sends). Watches are read
 * until their first line (or a short wait) and then dropped.
 */
import { Agent, request } from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import { isIdleSocketReset } from "../faults/api-client.ts";

export interface RawRequest {
  method: string;
  /** Path and query, sent as is (it must be ASCII/latin1 without spaces: node refuses others). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** undefined: the client's token; null: no Authorization header; a string: that header value. */
  auth?: string | null;
  /** A streaming response: resolve on its first line or after `streamWaitMs`, then close it. */
  stream?: boolean;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** True when a stream was cut by the client (it was still open). */
  cut: boolean;
}

export interface RawClient {
  send(r: RawRequest): Promise<RawResponse>;
  close(): void;
}

/** A keep-alive client for `url` trusting `ca`; requests time out after `timeoutMs`. */
export function rawClient(
  url: string,
  ca: string,
  token: string,
  opts: { maxSockets?: number; timeoutMs?: number; streamWaitMs?: number } = {},
): RawClient & { retries(): number } {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 16, ca });
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const streamWaitMs = opts.streamWaitMs ?? 300;
  let retries = 0;
  const once = (r: RawRequest): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...(r.headers ?? {}) };
      const auth = r.auth === undefined ? `Bearer ${token}` : r.auth;
      if (auth !== null) headers["Authorization"] = auth;
      if (r.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(r.body));
      const req = request({ host: u.hostname, port: u.port, method: r.method, path: r.path, headers, agent, ca }, (res) => {
        const chunks: Buffer[] = [];
        let done = false;
        const finish = (cut: boolean): void => {
          if (done) return;
          done = true;
          clearTimeout(wait);
          if (cut) res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), cut });
        };
        const wait = r.stream ? setTimeout(() => finish(true), streamWaitMs) : undefined;
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          if (r.stream && c.includes(0x0a)) finish(true);
        });
        res.on("end", () => finish(false));
        res.on("error", (e) => (done ? undefined : reject(e)));
        res.on("close", () => finish(false));
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${r.method} ${r.path.slice(0, 200)}`)));
      req.on("error", (e: Error & { code?: string }) => reject(Object.assign(e, { reusedSocket: req.reusedSocket })));
      req.end(r.body);
    });
  // A keep-alive socket the server closed while it was idle resets the next request on it
  // (node's documented race): such a request never reached the server and is sent again, once.
  const send = async (r: RawRequest): Promise<RawResponse> => {
    try {
      return await once(r);
    } catch (e) {
      if (!isIdleSocketReset(e as { code?: string; reusedSocket?: boolean })) throw e;
      retries++;
      return once(r);
    }
  };
  return { send, close: () => agent.destroy(), retries: () => retries };
}

/** A JSON GET through `client` (throws on a non-2xx answer). */
export async function getJSON<T = unknown>(client: RawClient, path: string): Promise<T> {
  const r = await client.send({ method: "GET", path, headers: { Accept: "application/json" } });
  if (r.status >= 300) throw new Error(`GET ${path}: ${r.status} ${r.body.toString("utf8").slice(0, 300)}`);
  return JSON.parse(r.body.toString("utf8")) as T;
}
