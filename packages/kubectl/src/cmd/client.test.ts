import { createServer, type Server } from "node:http";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClient, warningTexts } from "./client.ts";

describe("warningTexts (client-go parseWarningHeaders)", () => {
  it.each<[string, string[], string[]]>([
    [
      "one",
      ["Warning", '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"'],
      ["v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"],
    ],
    ["escaped quotes", ["warning", '299 - "unknown field \\"spec.foo\\""'], ['unknown field "spec.foo"']],
    ["two in one value", ["Warning", '299 - "a", 299 - "b"'], ["a", "b"]],
    ["two header lines", ["Warning", '299 - "a"', "Content-Type", "application/json", "Warning", '299 - "b"'], ["a", "b"]],
    ["other codes ignored", ["Warning", '199 - "misc"'], []],
    ["no warnings", ["Content-Type", "application/json"], []],
  ])("%s", (_, raw, want) => expect(warningTexts(raw)).toEqual(want));
});

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
