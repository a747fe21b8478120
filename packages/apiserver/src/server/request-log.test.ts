/** The per-request log line (upstream's httplog): written by default, not even built with `logRequests: false`. */
import { afterEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../storage/index.ts";
import { startServer, type RunningServer } from "./server.ts";

describe("request log lines", () => {
  let server: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await server?.close();
    await store?.close();
  });

  it.each([
    { logRequests: undefined, lines: 1 },
    { logRequests: true, lines: 1 },
    { logRequests: false, lines: 0 },
  ])("logRequests $logRequests: $lines line(s) per request, error lines always", async ({ logRequests, lines }) => {
    store = await createStore({ backend: "memory" });
    const logged: string[] = [];
    server = await startServer({
      store,
      port: 0,
      log: (l) => logged.push(l),
      ...(logRequests !== undefined ? { logRequests } : {}),
    });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/services`, { headers: { "User-Agent": "request-log-test" } });
    expect(res.status).toBe(200);
    // finish() runs after the response is written: wait for the line (or for nothing to come).
    await new Promise((r) => setTimeout(r, 50));
    const requestLines = logged.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l["uri"] !== undefined);
    expect(requestLines).toHaveLength(lines);
    if (lines > 0)
      expect(requestLines[0]).toMatchObject({
        verb: "LIST",
        uri: "/api/v1/namespaces/default/services",
        code: 200,
        userAgent: "request-log-test",
      });
  });
});
