/**
 * The handler chain in DefaultBuildHandlerChain's order (staging/src/k8s.io/apiserver/pkg/server/
 * config.go): authentication, impersonation, priority and fairness, authorization, then the
 * director; and WithPanicRecovery's answer to what escapes it (server/filters/wrap.go).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { jsonLogger } from "@servicenet/component-base/logs";
import { afterEach, describe, expect, it } from "vitest";
import type { Authenticator } from "../authentication/authenticator/interfaces.ts";
import type { Authorizer } from "../authorization/authorizer/interfaces.ts";
import { createStore, type Store } from "../storage/index.ts";
import type { Handler } from "./filters/context.ts";
import { panicMessage } from "./filters/panic-recovery.ts";
import type { FlowControlConfig } from "./filters/flow-control.ts";
import { buildHandlerChain, director, type HandlerChainConfig } from "./handler-chain.ts";
import { RequestMetrics } from "./metrics.ts";
import { startServer, type RunningServer } from "./server.ts";

const alice = { name: "alice", uid: "", groups: ["system:authenticated"] };

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** Serves `handler` behind the whole chain on loopback; resolves to its URL. */
async function serve(c: Partial<HandlerChainConfig>, handler: Handler): Promise<string> {
  const listener = buildHandlerChain({ metrics: new RequestMetrics(), logger: jsonLogger("test", { write: () => {} }), ...c }, handler);
  server = createServer(listener);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("DefaultBuildHandlerChain order", () => {
  it("authenticates, impersonates, hands the impersonated user to priority and fairness, then authorizes it", async () => {
    const seen: string[] = [];
    const authenticator: Authenticator = {
      authenticateRequest: () => {
        seen.push("authentication");
        return { user: alice };
      },
    };
    const authorizer: Authorizer = {
      authorize: (a) => {
        seen.push(`authorization ${a.user?.name ?? ""} ${a.verb} ${a.resource}`);
        return { decision: "Allow", reason: "" };
      },
    };
    const flowControl: FlowControlConfig = {
      maxInFlight: {
        admit: (_verb, _longRunning, user) => {
          seen.push(`priority-and-fairness ${user?.name ?? ""}`);
          return () => {};
        },
      },
    };
    const url = await serve({ authenticator, authorizer, flowControl }, (ctx) => {
      seen.push(`handler ${ctx.user?.name ?? ""}`);
      ctx.res.end("ok");
      ctx.code = 200;
      return Promise.resolve();
    });
    const res = await fetch(`${url}/api/v1/namespaces/default/services`, { headers: { "Impersonate-User": "bob" } });
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      "authentication",
      "authorization alice impersonate users",
      "priority-and-fairness bob",
      "authorization bob list services",
      "handler bob",
    ]);
  });

  it("a request priority and fairness rejects is never authorized", async () => {
    const asked: string[] = [];
    const authorizer: Authorizer = {
      authorize: (a) => {
        asked.push(a.verb);
        return { decision: "Allow", reason: "" };
      },
    };
    const flowControl: FlowControlConfig = { maxInFlight: { admit: () => undefined } };
    const url = await serve({ authorizer, flowControl }, () => Promise.reject(new Error("not reached")));
    expect((await fetch(`${url}/api/v1/services`)).status).toBe(429);
    expect(asked).toEqual([]);
  });

  it("a refused authentication is a 401 before anything else runs", async () => {
    const seen: string[] = [];
    const url = await serve(
      {
        authenticator: { authenticateRequest: () => undefined },
        authorizer: { authorize: () => (seen.push("authorization"), { decision: "Allow", reason: "" }) },
        flowControl: { maxInFlight: { admit: () => (seen.push("priority-and-fairness"), () => {}) } },
      },
      () => (seen.push("handler"), Promise.resolve()),
    );
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ kind: "Status", reason: "Unauthorized", code: 401 });
    expect(seen).toEqual([]);
  });
});

describe("the director", () => {
  let running: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await running?.close();
    await store?.close();
    running = undefined;
  });

  it("an anonymous request reads /healthz from the mux but is refused a resource, both through authorization", async () => {
    store = await createStore({ backend: "memory" });
    const asked: string[] = [];
    // RBAC's system:public-info-viewer in small: the health paths, nothing else.
    const authorizer: Authorizer = {
      authorize: (a) => {
        asked.push(a.resourceRequest ? `${a.verb} ${a.resource}` : `${a.verb} ${a.path}`);
        return a.resourceRequest ? { decision: "NoOpinion", reason: "" } : { decision: "Allow", reason: "" };
      },
    };
    running = await startServer({ store, port: 0, tokens: new Map(), authorizer });
    const health = await fetch(`${running.url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
    const list = await fetch(`${running.url}/api/v1/namespaces/default/services`);
    expect(list.status).toBe(403);
    expect(await list.json()).toMatchObject({
      reason: "Forbidden",
      message: 'services is forbidden: User "system:anonymous" cannot list resource "services" in API group "" in the namespace "default"',
    });
    expect(asked).toEqual(["get /healthz", "list services"]);
  });

  it("sends a path no mux entry claims to the resource handler, and a handler's error back as a Status", async () => {
    const url = await serve(
      {},
      director([{ name: "mine", matches: (p) => p === "/mine", handle: () => Promise.reject(new Error("storage down")) }], (ctx) => {
        ctx.res.end(`resources ${ctx.path}`);
        ctx.code = 200;
        return Promise.resolve();
      }),
    );
    expect(await (await fetch(`${url}/api/v1/services/`)).text()).toBe("resources /api/v1/services");
    const mine = await fetch(`${url}/mine`);
    expect(mine.status).toBe(500);
    expect(await mine.json()).toMatchObject({ kind: "Status", reason: "InternalError", message: "Internal error occurred: storage down" });
  });
});

describe("the mux's go-restful routes", () => {
  let running: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await running?.close();
    await store?.close();
    running = undefined;
  });

  const methodNotAllowed = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "the server does not allow this method on the requested resource",
    reason: "MethodNotAllowed",
    details: {},
    code: 405,
  };

  // [method, path, status]: go-restful's GET routes answer 405 for other methods (a Status, as the
  // generic server's serviceErrorHandler writes it); NonGoRestfulMux handlers serve every method.
  it.each([
    ["POST", "/version", 405],
    ["DELETE", "/version", 405],
    ["HEAD", "/version", 200],
    ["POST", "/api", 405],
    ["PUT", "/api/v1", 405],
    ["POST", "/apis/apps/v1", 405],
    ["POST", "/apis", 200],
    ["POST", "/apis/apps", 200],
    ["POST", "/healthz", 200],
    ["GET", "/version", 200],
  ] as const)("%s %s is %d", async (method, path, status) => {
    store = await createStore({ backend: "memory" });
    const authorizer: Authorizer = { authorize: () => ({ decision: "Allow", reason: "" }) };
    running = await startServer({ store, port: 0, tokens: new Map(), authorizer });
    const r = await fetch(`${running.url}${path}`, { method, ...(method === "GET" || method === "HEAD" ? {} : { body: "{}" }) });
    expect(r.status).toBe(status);
    if (status === 405) expect(await r.json()).toEqual(methodNotAllowed);
  });
});

describe("WithPanicRecovery", () => {
  it("answers what escapes the chain with upstream's plain-text 500, logs it and counts it", async () => {
    const lines: string[] = [];
    const metrics = new RequestMetrics();
    const url = await serve({ metrics, logger: jsonLogger("test", { write: (l) => lines.push(l) }) }, () => {
      throw new TypeError("Cannot read properties of undefined (reading 'spec')");
    });
    const res = await fetch(`${url}/api/v1/services`, { headers: { "Audit-ID": "a-1" } });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("audit-id")).toBe("a-1");
    expect(await res.text()).toBe(`${panicMessage}\n`);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ level: "error", msg: "apiserver panic'd", method: "GET", URI: "/api/v1/services", auditID: "a-1" }),
    );
    expect(metrics.render()).toContain('apiserver_request_total{code="500"');
  });
});
