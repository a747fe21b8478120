/** Watch over HTTP: chunked JSON lines, resourceVersion, selectors, timeoutSeconds, sendInitialEvents. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

type Ev = {
  type: string;
  object: { metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; kind?: string };
};
const lines = (text: string): Ev[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Ev);
const json = { "Content-Type": "application/json" };

describe("watch", () => {
  let s: TestServer;
  const create = (name: string, labels: Record<string, string> = {}) =>
    s.request("/api/v1/namespaces/default/endpoints", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name, labels } }),
    });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("streams changes after a resourceVersion, filtered by label, and ends at timeoutSeconds", async () => {
    const first = (await create("w0", { w: "yes" })).json() as Ev["object"];
    const started = Date.now();
    const watching = s.request(
      `/api/v1/namespaces/default/endpoints?watch=true&labelSelector=w%3Dyes&resourceVersion=${first.metadata.resourceVersion}&timeoutSeconds=1`,
    );
    await new Promise((r) => setTimeout(r, 200));
    await create("w1", { w: "yes" });
    await create("w2", { w: "no" });
    await s.request("/api/v1/namespaces/default/endpoints/w1", { method: "DELETE" });
    const r = await watching;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(lines(r.text).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["ADDED w1", "DELETED w1"]);
  });

  it("without a resourceVersion starts with ADDED for what exists", async () => {
    const r = await s.request("/api/v1/namespaces/default/endpoints?watch=1&fieldSelector=metadata.name%3Dw0&timeoutSeconds=1");
    expect(lines(r.text).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(["ADDED w0"]);
  });

  it("sendInitialEvents ends the initial list with an annotated bookmark", async () => {
    const r = await s.request(
      "/api/v1/namespaces/default/endpoints?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&labelSelector=w%3Dyes&timeoutSeconds=1",
    );
    const evs = lines(r.text);
    expect(evs.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK"]);
    expect(evs[1]?.object).toMatchObject({ kind: "Endpoints", metadata: { annotations: { "k8s.io/initial-events-end": "true" } } });
  });

  it("serves Table rows to kubectl-style watches, headers only in the first event", async () => {
    const watching = s.request("/api/v1/namespaces/default/endpoints?watch=true&timeoutSeconds=1", {
      headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json" },
    });
    const evs = lines((await watching).text) as unknown as {
      type: string;
      object: { kind: string; columnDefinitions: unknown[]; rows: { cells: unknown[] }[] };
    }[];
    expect(evs.length).toBeGreaterThanOrEqual(2);
    expect(evs.every((e) => e.object.kind === "Table" && e.object.rows.length === 1)).toBe(true);
    expect(evs[0]?.object.columnDefinitions).toHaveLength(3);
    expect(evs[1]?.object.columnDefinitions).toEqual([]);
  });
});
