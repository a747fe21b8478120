/** The per-request log line (upstream's httplog): written from V(3), not even built below it. */
import { jsonLogger } from "@servicenet/component-base/logs";
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
    { verbosity: 3, lines: 1 },
    { verbosity: 4, lines: 1 },
    { verbosity: 2, lines: 0 },
  ])("-v $verbosity: $lines line(s) per request", async ({ verbosity, lines }) => {
    store = await createStore({ backend: "memory" });
    const logged: string[] = [];
    server = await startServer({
      store,
      port: 0,
      logger: jsonLogger("apiserver", { verbosity, write: (l) => logged.push(l) }),
    });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/services`, { headers: { "User-Agent": "request-log-test" } });
    expect(res.status).toBe(200);
    // finish() runs after the response is written: wait for the line (or for nothing to come).
    await new Promise((r) => setTimeout(r, 50));
    const requestLines = logged.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l["msg"] === "HTTP");
    expect(requestLines).toHaveLength(lines);
    if (lines > 0)
      expect(requestLines[0]).toMatchObject({
        verb: "LIST",
        URI: "/api/v1/namespaces/default/services",
        resp: 200,
        userAgent: "request-log-test",
      });
  });
});
