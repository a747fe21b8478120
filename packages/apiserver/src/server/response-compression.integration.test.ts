/**
 * APIResponseCompression over HTTP, as kube-apiserver 1.33 answers (responsewriters/writers.go):
 * gzip for a client that accepts it once the serialized body is over 128 KiB, never for a watch.
 */
import type { IncomingMessage } from "node:http";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { request } from "node:https";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gzipThresholdBytes, negotiateContentEncoding } from "./response-compression.ts";
import { kubectl133, startTestServer, type TestServer } from "./testing.ts";

interface Raw {
  status: number;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** A GET with these headers, the body as sent (not decompressed); for a watch, what came in `ms`. */
function get(s: TestServer, path: string, headers: Record<string, string>, watchMs = 0): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.api.url}${path}`,
      { headers: { Authorization: `Bearer ${s.api.token}`, ...headers }, rejectUnauthorized: false },
      (res) => {
        const chunks: Buffer[] = [];
        const done = (): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", done);
        if (watchMs > 0)
          setTimeout(() => {
            done();
            req.destroy();
          }, watchMs);
      },
    );
    req.on("error", (e) => (watchMs > 0 ? undefined : reject(e)));
    req.end();
  });
}

describe("negotiateContentEncoding", () => {
  it.each([
    [undefined, ""],
    ["", ""],
    ["gzip", "gzip"],
    ["deflate, gzip", "gzip"],
    [" br ,  gzip  ", "gzip"],
    ["gzip;q=1.0", ""],
    ["x-gzip", ""],
    ["GZIP", ""],
    ["identity", ""],
  ])("Accept-Encoding %j -> %j", (header, want) => {
    expect(negotiateContentEncoding(header)).toBe(want);
  });
});

describe("response compression", () => {
  let s: TestServer;
  const path = "/api/v1/namespaces/default/services/big";
  beforeAll(async () => {
    s = await startTestServer();
    // One object whose JSON is just over the threshold, and one well under it.
    const make = (name: string, size: number) =>
      s.request("/api/v1/namespaces/default/services", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ metadata: { name, annotations: { pad: "x".repeat(size) } }, spec: { ports: [{ port: 80 }] } }),
      });
    expect((await make("big", gzipThresholdBytes)).status).toBe(201);
    expect((await make("small", 1000)).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("gzips a body over 128 KiB for a client that accepts gzip, with Vary: Accept-Encoding", async () => {
    const r = await get(s, path, { "Accept-Encoding": "gzip" });
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(r.headers["vary"]).toBe("Accept-Encoding");
    expect(r.headers["content-type"]).toBe("application/json");
    const obj = JSON.parse(gunzipSync(r.body).toString("utf8")) as { metadata: { annotations: { pad: string } } };
    expect(obj.metadata.annotations.pad).toHaveLength(gzipThresholdBytes);
    expect(r.body.length).toBeLessThan(gzipThresholdBytes / 10);
  });

  it("gzips a list over 128 KiB, and a Table", async () => {
    const list = await get(s, "/api/v1/namespaces/default/services", { "Accept-Encoding": "deflate, gzip" });
    expect(list.headers["content-encoding"]).toBe("gzip");
    expect((JSON.parse(gunzipSync(list.body).toString("utf8")) as { items: unknown[] }).items.length).toBeGreaterThanOrEqual(2);
    const table = await get(s, "/api/v1/namespaces/default/services?includeObject=Object", {
      "Accept-Encoding": "gzip",
      Accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    expect(table.headers["content-encoding"]).toBe("gzip");
  });

  it.each([
    ["without Accept-Encoding", path, {}],
    ["for a body of 128 KiB or less", "/api/v1/namespaces/default/services/small", { "Accept-Encoding": "gzip" }],
    ["for an encoding it does not offer", path, { "Accept-Encoding": "br" }],
  ])("answers uncompressed %s", async (_name, p, headers) => {
    const r = await get(s, p, headers);
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.headers["vary"]).toBeUndefined();
    expect(JSON.parse(r.body.toString("utf8"))).toHaveProperty("kind", "Service");
  });

  it("never compresses a watch", async () => {
    const r = await get(s, "/api/v1/namespaces/default/services?watch=true", { "Accept-Encoding": "gzip" }, 1500);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.body.toString("utf8")).toContain('"name":"big"');
  });

  it("@kubernetes/client-node reads the compressed answers", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(s.api.kubeconfig());
    const core = kc.makeApiClient(CoreV1Api);
    const svc = await core.readNamespacedService({ name: "big", namespace: "default" });
    expect(svc.metadata?.annotations?.["pad"]).toHaveLength(gzipThresholdBytes);
    const list = await core.listNamespacedService({ namespace: "default" });
    expect(list.items.map((i) => i.metadata?.name).sort()).toEqual(["big", "kubernetes", "small"]);
  });

  it.skipIf(kubectl133 === "")("real kubectl reads the compressed answers", async () => {
    const r = await s.kubectl(["get", "svc", "big", "-o", "jsonpath={.metadata.annotations.pad}"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toHaveLength(gzipThresholdBytes);
  });
});
