import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { chunkOf, chunkWriter } from "./watch-chunks.ts";

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** Serves one response written by `write`; resolves with the raw bytes the client read and the decoded body. */
async function exchange(write: (res: ServerResponse) => Promise<void>, httpVersion = "1.1"): Promise<{ raw: string; body: string }> {
  const server = createServer((_req, res) => void write(res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const { connect } = await import("node:net");
  const raw = await new Promise<string>((resolve, reject) => {
    const sock = connect(port, "127.0.0.1", () => sock.write(`GET /w HTTP/${httpVersion}\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let data = "";
    sock.on("data", (c: Buffer) => (data += c.toString("utf8")));
    sock.on("end", () => resolve(data));
    sock.on("error", reject);
  });
  const body = await new Promise<string>((resolve, reject) => {
    request({ port, path: "/w", host: "127.0.0.1" }, (res) => {
      let b = "";
      res.on("data", (c: Buffer) => (b += c.toString("utf8")));
      res.on("end", () => resolve(b));
    })
      .on("error", reject)
      .end();
  });
  return { raw, body };
}

const lines = ['{"type":"ADDED","object":{"n":"é"}}\n', '{"type":"MODIFIED","object":{"n":"b"}}\n'];

async function watchLike(res: ServerResponse, headers: Record<string, string> = { "Transfer-Encoding": "chunked" }): Promise<void> {
  res.writeHead(200, { "Content-Type": "application/json", ...headers });
  res.flushHeaders();
  const send = chunkWriter(res);
  const shared = chunkOf(lines[0]!);
  send(shared);
  send(chunkOf(lines[1]!));
  await new Promise((r) => setImmediate(r));
  send(shared); // the same chunk to a second write: shared bytes are not consumed
  res.end();
}

describe("chunkOf", () => {
  it("frames a line with its byte length in hex, the line a view of the frame", () => {
    const c = chunkOf("é\n");
    expect(c.frame.toString("utf8")).toBe("3\r\né\n\r\n");
    expect(c.line.toString("utf8")).toBe("é\n");
    expect(c.line.buffer).toBe(c.frame.buffer);
  });
});

describe("chunkWriter", () => {
  it("writes chunked frames straight to the socket, and res.end closes the body after them", async () => {
    const { raw, body } = await exchange(watchLike);
    expect(body).toBe(lines[0]! + lines[1]! + lines[0]!);
    const framed = raw.slice(raw.indexOf("\r\n\r\n") + 4);
    const frame = (l: string): string => `${Buffer.byteLength(l).toString(16)}\r\n${l}\r\n`;
    expect(framed).toBe(frame(lines[0]!) + frame(lines[1]!) + frame(lines[0]!) + "0\r\n\r\n");
  });

  it("falls back to res.write when node does not frame the response as chunked (HTTP/1.0, no Transfer-Encoding)", async () => {
    const { raw } = await exchange((res) => watchLike(res, {}), "1.0");
    expect(raw.slice(raw.indexOf("\r\n\r\n") + 4)).toBe(lines[0]! + lines[1]! + lines[0]!);
  });

  it("writes nothing once the response has ended", async () => {
    const { body } = await exchange(async (res) => {
      res.writeHead(200, { "Transfer-Encoding": "chunked" });
      res.flushHeaders();
      const send = chunkWriter(res);
      send(chunkOf(lines[0]!));
      res.end();
      send(chunkOf(lines[1]!));
    });
    expect(body).toBe(lines[0]);
  });
});
