/**
 * Bearer tokens with raw bytes around them, over the wire: kube-apiserver trims the header with
 * Go's strings.TrimSpace, which keeps a lone 0xA0 byte (not UTF-8) and drops UTF-8 U+00A0.
 */
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";

/** One raw HTTP/1.1 GET over TLS with these Authorization header bytes; the answer's status code. */
function statusWithAuthorization(url: string, path: string, authorization: Buffer): Promise<number> {
  const u = new URL(url);
  const request = Buffer.concat([
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\nAuthorization: `),
    authorization,
    Buffer.from("\r\n\r\n"),
  ]);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // write, not end: a half-closed connection lets node's server abort a request still in flight
    // (socketOnEnd without httpAllowHalfOpen), an empty answer; `Connection: close` ends it after the response.
    const socket = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => socket.write(request));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString("latin1"))?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

describe("bearer token bytes over the wire", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });
  const token = (): string => s.api.token ?? "";

  it.each([
    ["the token alone", 200, []],
    ["a trailing 0xA0 byte", 401, [0xa0]],
    ["a trailing UTF-8 U+00A0 (C2 A0)", 200, [0xc2, 0xa0]],
    ["a trailing UTF-8 U+0085 (C2 85)", 200, [0xc2, 0x85]],
    ["a trailing UTF-8 U+FEFF (EF BB BF)", 401, [0xef, 0xbb, 0xbf]],
  ])("%s answers %i", async (_name, status, after) => {
    const auth = Buffer.concat([Buffer.from(`Bearer ${token()}`), Buffer.from(after)]);
    expect(await statusWithAuthorization(s.api.url, "/api/v1/namespaces/default/services", auth)).toBe(status);
  });
});
