// The streaming list encoder (streamEncodeCollections + deferredResponseWriter): the bytes of
// JSON.stringify of the whole list, Go's framing (Content-Length up to 2048 bytes, chunked after),
// gzip above 128 KiB when accepted, and the event loop served while a big list is written.
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { writeListStreaming, type StreamedList } from "./list-stream.ts";

let server: Server | undefined;
afterEach(() => server?.close());

interface Item {
  n: number;
}

const list = (n: number, pad = 0): StreamedList<Item> => ({
  head: { kind: "ThingList", apiVersion: "v1", metadata: { resourceVersion: "7" } },
  items: Array.from({ length: n }, (_, i) => ({ n: i })),
  encodeItem: (o) => ({ kind: "Thing", apiVersion: "v1", metadata: { name: `t-${o.n}` }, pad: "x".repeat(pad) }),
});

const whole = (l: StreamedList<Item>): string => JSON.stringify({ ...l.head, items: l.items.map((i) => l.encodeItem(i)) });

/** Serves `l` once and returns what a client read (raw bytes and headers). */
async function serve(l: StreamedList<Item>, acceptEncoding?: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  server = createServer((_req, res) => void writeListStreaming(res, 200, { "Content-Type": "application/json" }, l));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    const req = request({ port, host: "127.0.0.1", headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("writeListStreaming", () => {
  it.each([
    ["empty", 0, 0],
    ["one item", 1, 0],
    ["just under 2048 bytes", 20, 0],
    ["5,000 items", 5000, 0],
    ["items of 100 KiB", 30, 100 * 1024],
  ])("writes the bytes of JSON.stringify of the whole list: %s", async (_name, n, pad) => {
    const l = list(n, pad);
    const got = await serve(l);
    expect(got.body.toString("utf8")).toBe(whole(l));
  });

  it("frames as Go's net/http: Content-Length up to 2048 bytes, chunked beyond", async () => {
    const small = await serve(list(20));
    expect(Number(small.headers["content-length"])).toBe(whole(list(20)).length);
    expect(whole(list(20)).length).toBeLessThanOrEqual(2048);
    server?.close();
    const big = await serve(list(100));
    expect(big.headers["content-length"]).toBeUndefined();
    expect(big.headers["transfer-encoding"]).toBe("chunked");
  });

  it("gzips a list over 128 KiB when the client accepts it, as deferredResponseWriter", async () => {
    const l = list(5000);
    const got = await serve(l, "gzip");
    expect(got.headers["content-encoding"]).toBe("gzip");
    expect(got.headers["vary"]).toBe("Accept-Encoding");
    expect(gunzipSync(got.body).toString("utf8")).toBe(whole(l));
    server?.close();
    const small = await serve(list(100), "gzip");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString("utf8")).toBe(whole(list(100)));
  });

  it("gives the event loop turns while it encodes a big list", async () => {
    // A callback queued when the encode starts must run before it ends (one JSON.stringify of the
    // whole list would run it only afterwards).
    let turns = 0;
    let finished = false;
    const tick = (): void => {
      if (finished) return;
      turns++;
      setImmediate(tick);
    };
    server = createServer((_req, res) => {
      setImmediate(tick);
      void writeListStreaming(res, 200, {}, list(20_000, 200)).then(() => (finished = true));
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect((await res.text()).length).toBe(whole(list(20_000, 200)).length);
    expect(turns).toBeGreaterThan(1);
  });

  it("writes the items as itemJSON gives them when the list has it (encoded-cache.ts)", async () => {
    const l: StreamedList<Item> = { ...list(3), itemJSON: (o) => JSON.stringify({ cached: o.n }) };
    const got = await serve(l);
    expect(JSON.parse(got.body.toString("utf8"))).toEqual({ ...l.head, items: [{ cached: 0 }, { cached: 1 }, { cached: 2 }] });
  });

  it("writes an item of megabytes a batch at a time without splitting a surrogate pair", async () => {
    // One code unit first, so that batch boundaries fall inside the 2-unit characters.
    const l = list(2, 1_000_000);
    const odd: StreamedList<Item> = { ...l, encodeItem: (o) => ({ n: o.n, pad: "a" + "\u{1F600}".repeat(600_000) }) };
    const got = await serve(odd);
    expect(got.body.toString("utf8")).toBe(whole(odd));
  });
});
