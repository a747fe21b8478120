/**
 * Idle keep-alive connections: kube-apiserver's http.Server has IdleTimeout 90 s ("matches
 * http.DefaultTransport keep-alive timeout"), so clients that pool connections (client-go, our
 * controller-manager, kubectl) reuse them across pauses. Node's default is 5 s, which makes a
 * request written onto a socket the server is just closing fail with ECONNRESET.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../storage/index.ts";
import { startServer, type RunningServer } from "./server.ts";

describe("keep-alive", () => {
  let server: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await server?.close();
    await store?.close();
  });

  it("keeps an idle connection 90 s, as kube-apiserver does, and says so", async () => {
    store = await createStore({ backend: "memory" });
    server = await startServer({ store, port: 0 });
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(`${server!.url}/api/v1/namespaces`, { headers: { connection: "keep-alive" } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers));
      });
      req.on("error", reject);
      req.end();
    });
    expect(headers["connection"]).toBe("keep-alive");
    expect(headers["keep-alive"]).toBe("timeout=90");
    expect(server.server.keepAliveTimeout).toBe(90_000);
  });
});
