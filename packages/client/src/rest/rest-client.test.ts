import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTLSServer } from "node:https";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { StatusError } from "@servicenet/api/errors";
import { FakeClock } from "@servicenet/component-base/clock";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCert } from "../testing/self-signed.ts";
import { newRESTClient, RESTConfigError } from "./rest-client.ts";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let url = "";
let handler: Handler = (_q, _b, res) => res.end("{}");

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handler(req, Buffer.concat(chunks).toString("utf8"), res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function kubeConfig(user: Record<string, unknown> = { name: "u", token: "t0ken" }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: url }],
    users: [user as { name: string }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}

describe("newRESTClient", () => {
  it("sends JSON with the credentials, under the server URL's path, and parses the answer", async () => {
    const seen: string[] = [];
    handler = (req, body, res) => {
      seen.push(
        `${req.method} ${req.url} ${req.headers["authorization"]} ${req.headers["content-type"]} ${req.headers["user-agent"]} ${body}`,
      );
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"kind":"Pod"}');
    };
    const rest = newRESTClient(kubeConfig(), { userAgent: "ua/1" });
    await expect(rest.request("PATCH", "/api/v1/x", { a: 1 }, "application/merge-patch+json")).resolves.toEqual({ kind: "Pod" });
    expect(seen).toEqual(['PATCH /prefix/api/v1/x Bearer t0ken application/merge-patch+json ua/1 {"a":1}']);
  });

  it("answers an empty body as undefined", async () => {
    handler = (_q, _b, res) => res.writeHead(200).end();
    await expect(newRESTClient(kubeConfig()).request("DELETE", "/x")).resolves.toBeUndefined();
  });

  it.each([
    [
      "a Status body",
      404,
      '{"kind":"Status","code":404,"reason":"NotFound","message":"services \\"a\\" not found"}',
      "NotFound",
      'services "a" not found',
    ],
    ["no Status", 409, "", "Conflict", "the server responded with the status code 409 but did not return more information"],
  ])("turns a non-2xx answer with %s into its StatusError", async (_, code, body, reason, message) => {
    handler = (_q, _b, res) => res.writeHead(code).end(body);
    const err = await newRESTClient(kubeConfig())
      .request("GET", "/x")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({ code, reason, message });
  });

  it("reports code-299 warnings", async () => {
    handler = (_q, _b, res) => res.writeHead(200, { Warning: ['299 - "one"', '299 - "two"'] }).end("{}");
    const warnings: string[] = [];
    await newRESTClient(kubeConfig(), { onWarning: (w) => warnings.push(w) }).request("GET", "/x");
    expect(warnings).toEqual(["one", "two"]);
  });

  it("streams the lines of a 2xx answer and resolves when it ends", async () => {
    handler = (_q, _b, res) => {
      res.writeHead(200);
      res.write('{"type":"ADDED"}\n\n{"type":');
      setImmediate(() => res.end('"DELETED"}\n'));
    };
    const lines: string[] = [];
    const res = await newRESTClient(kubeConfig()).stream("GET", "/w", {}, (l) => lines.push(l));
    expect([res.status, lines]).toEqual([200, ['{"type":"ADDED"}', '{"type":"DELETED"}']]);
  });

  it("gives a non-2xx stream's whole body and no lines", async () => {
    handler = (_q, _b, res) => res.writeHead(410).end('{"kind":"Status"}\n');
    const lines: string[] = [];
    const res = await newRESTClient(kubeConfig()).stream("GET", "/w", {}, (l) => lines.push(l));
    expect([res.status, res.body, lines]).toEqual([410, '{"kind":"Status"}\n', []]);
  });

  it("ends a stream quietly when its signal aborts", async () => {
    handler = (_q, _b, res) => void res.writeHead(200).write('{"a":1}\n');
    const abort = new AbortController();
    const res = await newRESTClient(kubeConfig()).stream("GET", "/w", { signal: abort.signal }, () => abort.abort());
    expect(res.aborted).toBe(true);
  });

  it("rejects with what onLine throws", async () => {
    handler = (_q, _b, res) => void res.writeHead(200).write("not json\n");
    const rest = newRESTClient(kubeConfig());
    await expect(rest.stream("GET", "/w", {}, (l) => JSON.parse(l))).rejects.toBeInstanceOf(SyntaxError);
  });

  it("rejects with the transport's error when nothing answers", async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "c", server: "http://127.0.0.1:1" }],
      users: [{ name: "u" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    await expect(newRESTClient(kc).do("GET", "/x")).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("tells credentials that cannot be applied from transport errors", async () => {
    const rest = newRESTClient(
      kubeConfig({ name: "u", exec: { command: "/nonexistent/credential-plugin", apiVersion: "client.authentication.k8s.io/v1" } }),
    );
    await expect(rest.do("GET", "/x")).rejects.toBeInstanceOf(RESTConfigError);
  });
});

describe("newRESTClient over TLS", () => {
  // client-node's applyToHTTPSOptions builds a fresh agent (a new connection and handshake) per request.
  it("keeps one keep-alive connection for sequential requests", async () => {
    const { cert, key } = selfSignedCert();
    let connections = 0;
    const tls = createTLSServer({ cert, key }, (_q, res) => res.writeHead(200).end("{}"));
    tls.on("secureConnection", () => connections++);
    await new Promise<void>((r) => tls.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        { name: "c", server: `https://127.0.0.1:${(tls.address() as AddressInfo).port}`, caData: Buffer.from(cert).toString("base64") },
      ],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    const rest = newRESTClient(kc);
    for (let i = 0; i < 5; i++) await rest.request("GET", "/x");
    tls.closeAllConnections();
    await new Promise((r) => tls.close(r));
    expect(connections).toBe(1);
  });
});

describe("newRESTClient's QPS and Burst", () => {
  it("throttles to qps after a burst, as client-go's tryThrottle", async () => {
    const clock = new FakeClock(0);
    let arrived = 0;
    handler = (_q, _b, res) => (arrived++, res.writeHead(200).end("{}"));
    const rest = newRESTClient(kubeConfig(), { qps: 2, burst: 2, clock });
    const all = Promise.all(Array.from({ length: 4 }, () => rest.request("GET", "/x")));
    await eventually(() => expect(arrived).toBe(2));
    // The third token comes 500 ms later, the fourth 1 s later.
    clock.step(499);
    await new Promise((r) => setTimeout(r, 50));
    expect(arrived).toBe(2);
    clock.step(1);
    await eventually(() => expect(arrived).toBe(3));
    clock.step(500);
    await all;
    expect(arrived).toBe(4);
  });

  it("takes client-go's DefaultQPS 5 and DefaultBurst 10 for 0, as rest.RESTClientFor", async () => {
    const clock = new FakeClock(0);
    let arrived = 0;
    handler = (_q, _b, res) => (arrived++, res.writeHead(200).end("{}"));
    const rest = newRESTClient(kubeConfig(), { qps: 0, burst: 0, clock });
    const all = Promise.all(Array.from({ length: 11 }, () => rest.request("GET", "/x")));
    await eventually(() => expect(arrived).toBe(10));
    // The eleventh token comes 1/5 s later.
    clock.step(199);
    await new Promise((r) => setTimeout(r, 50));
    expect(arrived).toBe(10);
    clock.step(1);
    await all;
    expect(arrived).toBe(11);
  });

  it("does not throttle with a negative qps, as rest.RESTClientFor", async () => {
    let arrived = 0;
    handler = (_q, _b, res) => (arrived++, res.writeHead(200).end("{}"));
    const rest = newRESTClient(kubeConfig(), { qps: -1, burst: 1, clock: new FakeClock(0) });
    await Promise.all(Array.from({ length: 20 }, () => rest.request("GET", "/x")));
    expect(arrived).toBe(20);
  });

  it("does not throttle without a qps", async () => {
    let arrived = 0;
    handler = (_q, _b, res) => (arrived++, res.writeHead(200).end("{}"));
    const rest = newRESTClient(kubeConfig(), { clock: new FakeClock(0) });
    await Promise.all(Array.from({ length: 20 }, () => rest.request("GET", "/x")));
    expect(arrived).toBe(20);
  });
});
