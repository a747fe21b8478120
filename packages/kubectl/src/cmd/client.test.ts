import { createServer, type Server } from "node:http";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClient } from "./client.ts";

describe("newClient warnings", () => {
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", Warning: ['299 - "deprecated"'] });
      res.end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const a = server.address();
    url = `http://127.0.0.1:${typeof a === "object" && a !== null ? a.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("reports each server warning once per client, as kubectl's deduplicating writer", async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: "c", server: url }],
      users: [{ name: "u" }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    const got: string[] = [];
    const client = newClient(kc, (w) => got.push(w));
    await client.get("/api/v1/namespaces/default/endpoints");
    await client.get("/api/v1/namespaces/default/endpoints");
    expect(got).toEqual(["deprecated"]);
  });
});
