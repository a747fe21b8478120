/** Response framing as Go's net/http does it: Content-Length up to 2048 bytes, chunked above. */
import { createServer, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { bufferBeforeChunkingSize, encode, endWith, send } from "./http.ts";

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** The raw head and body of one response written by `write`. */
async function raw(write: (res: ServerResponse) => void): Promise<{ head: string; body: string }> {
  const server = createServer((_req, res) => write(res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const text = await new Promise<string>((resolve, reject) => {
    const sock = connect(port, "127.0.0.1", () => sock.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    let data = "";
    sock.on("data", (c: Buffer) => (data += c.toString("utf8")));
    sock.on("end", () => resolve(data));
    sock.on("error", reject);
  });
  const at = text.indexOf("\r\n\r\n");
  return { head: text.slice(0, at).toLowerCase(), body: text.slice(at + 4) };
}

/** A JSON object whose encoding is `bytes` long. */
const sized = (bytes: number): { s: string } => ({ s: "é".repeat(1) + "x".repeat(bytes - '{"s":"é"}'.length - 1) });

describe("send", () => {
  it.each([
    ["a small body", 100],
    ["a body of exactly 2048 bytes", bufferBeforeChunkingSize],
  ])("gives %s a Content-Length", async (_name, bytes) => {
    const body = sized(bytes);
    expect(Buffer.byteLength(JSON.stringify(body))).toBe(bytes);
    const r = await raw((res) => send(res, 201, body));
    expect(r.head).toContain(`content-length: ${bytes}`);
    expect(r.head).not.toContain("transfer-encoding");
    expect(r.body).toBe(JSON.stringify(body));
  });

  it("chunks a body longer than 2048 bytes", async () => {
    const body = sized(bufferBeforeChunkingSize + 1);
    const r = await raw((res) => send(res, 200, body));
    expect(r.head).toContain("transfer-encoding: chunked");
    expect(r.head).not.toContain("content-length");
    expect(r.body).toBe(`801\r\n${JSON.stringify(body)}\r\n0\r\n\r\n`);
  });

  it("sets no Content-Length on a 304, whose answer has no body (net/http bodyAllowedForStatus)", async () => {
    const r = await raw((res) => endWith(res, 304, { ETag: '"x"' }, ""));
    expect(r.head).toMatch(/^http\/1\.1 304/);
    expect(r.head).not.toContain("content-length");
    expect(r.body).toBe("");
  });
});

describe("encode as YAML", () => {
  it("writes a value the body holds twice in full each time, as Go's YAML does (no anchors or aliases)", () => {
    const verbs = ["get", "list"];
    const body = {
      resources: [
        { name: "a", verbs },
        { name: "b", verbs },
      ],
    };
    const { text } = encode(body, "yaml");
    expect(text).not.toMatch(/[&*]a1/);
    expect(parseYAML(text)).toEqual(body);
  });
});
