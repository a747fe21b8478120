import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { apiClient, NetworkError, warningTexts, type ApiClient } from "./api-client.ts";

/**
 * An HTTP server that answers the first request on each connection and resets the connection
 * on the second one without answering: what a request written onto a keep-alive socket meets
 * when the server has just closed that socket as idle.
 */
async function resettingServer(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const perSocket = new WeakMap<object, number>();
  const server = createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    seen.push(`${req.method} #${n}`);
    if (n > 1) return req.socket.destroy();
    const body = JSON.stringify({ kind: "Status", code: 200 });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("api-client keep-alive reset", () => {
  let server: Server | undefined;
  let client: ApiClient | undefined;
  afterEach(async () => {
    client?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
  });

  it.each(["GET", "HEAD"])("sends %s again, once, on a new socket when a reused socket is reset", async (method) => {
    const s = await resettingServer();
    server = s.server;
    client = apiClient({ server: s.url, token: "t", maxSockets: 1 });
    expect((await client.call(method, "/a")).status).toBe(200);
    expect((await client.call(method, "/b")).status).toBe(200);
    expect(s.seen).toEqual([`${method} #1`, `${method} #2`, `${method} #1`]);
  });

  it.each(["POST", "PUT", "DELETE"])("does not send %s twice: the reset is the caller's NetworkError", async (method) => {
    const s = await resettingServer();
    server = s.server;
    client = apiClient({ server: s.url, token: "t", maxSockets: 1 });
    expect((await client.call(method, "/a", {})).status).toBe(200);
    const err = await client.call(method, "/b", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe("ECONNRESET");
    expect(s.seen).toEqual([`${method} #1`, `${method} #2`]);
  });

  it("does not retry a reset on a fresh socket", async () => {
    const server1 = createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => server1.listen(0, "127.0.0.1", r));
    server = server1;
    client = apiClient({ server: `http://127.0.0.1:${(server1.address() as AddressInfo).port}`, token: "t" });
    let hits = 0;
    server1.on("request", () => hits++);
    const err = await client.call("GET", "/a").catch((e: unknown) => e);
    expect((err as NetworkError).code).toBe("ECONNRESET");
    expect(hits).toBe(1);
  });
});

describe("warningTexts", () => {
  it("unquotes every Warning header of rawHeaders, in order", () => {
    const raw = ["Content-Type", "application/json", "Warning", '299 - "a \\"quoted\\" one"', "warning", '299 - "second"', "X", "y"];
    expect(warningTexts(raw)).toEqual(['a "quoted" one', "second"]);
  });
});
