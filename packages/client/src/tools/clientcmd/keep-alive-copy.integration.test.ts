import { Agent as HttpsAgent, createServer, request, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCert } from "../../testing/self-signed.ts";
import { keepAliveCopy } from "./connection-reuse.ts";

describe("keepAliveCopy", () => {
  const { cert, key } = selfSignedCert();
  let server: Server;
  let port = 0;
  let connections = 0;
  let clientCerts = 0;
  beforeAll(async () => {
    server = createServer({ cert, key, ca: cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      // A reply after a tick, so concurrent requests really are in flight together.
      setImmediate(() => res.end("ok"));
      if ((req.socket as tls.TLSSocket).getPeerCertificate().subject?.CN === "127.0.0.1") clientCerts++;
    });
    server.on("secureConnection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  const get = (agent: HttpsAgent) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve(body));
      });
      req.on("error", reject);
      req.end();
    });

  it("builds the TLS context once, not once per connection the pool opens", async () => {
    const agent = keepAliveCopy(new HttpsAgent({ ca: cert, cert, key })) as HttpsAgent;
    // Patched on node:tls's exports, which the TLS socket code calls; restored below.
    const original = tls.createSecureContext;
    let built = 0;
    tls.createSecureContext = (o) => (built++, original(o));
    try {
      const before = connections;
      expect(await Promise.all([get(agent), get(agent), get(agent)])).toEqual(["ok", "ok", "ok"]);
      expect(connections - before).toBe(3);
      expect(built).toBe(0);
      expect(clientCerts).toBeGreaterThanOrEqual(3);
    } finally {
      tls.createSecureContext = original;
      agent.destroy();
    }
  });
});
