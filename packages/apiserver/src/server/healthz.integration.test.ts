/**
 * Authentication on the public paths and the health endpoints, as kube-apiserver 1.33: a wrong
 * bearer token is a 401 everywhere (never anonymous), no credentials may read /healthz, /livez,
 * /readyz and /version, and each health check has its own path (upstream healthz.go).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore } from "../storage/index.ts";
import { namedCheck, pingHealthz, postStartHookHealthz, rootHealth, singleHealth } from "./healthz.ts";
import { startServer } from "./server.ts";
import { startTestServer, type TestServer } from "./testing.ts";

const publicRoots = ["/healthz", "/livez", "/readyz", "/version"];
const hooks = [
  "poststarthook/start-system-namespaces-controller",
  "poststarthook/start-service-ip-repair-controllers",
  "poststarthook/bootstrap-controller",
  // kube-apiserver's RBAC storage hook: the bootstrap policy is reconciled at start-up.
  "poststarthook/rbac/bootstrap-roles",
  // The scheduling storage provider's hook: the system PriorityClasses.
  "poststarthook/scheduling/bootstrap-system-priority-classes",
  // The flowcontrol storage provider's hook, installed after RBAC's: the APF bootstrap configuration.
  "poststarthook/priority-and-fairness-config-producer",
];
const ok = (names: readonly string[]): string => names.map((n) => `[+]${n} ok\n`).join("");

describe("authentication of the public paths", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it.each(publicRoots)("answers a wrong bearer token on %s with 401 Unauthorized", async (path) => {
    for (const token of ["wrong-token", "test-tokenx", "test-toke"]) {
      const r = await s.request(path, { token });
      expect(r.status, `${path} ${token}`).toBe(401);
      expect(r.json()).toMatchObject({ kind: "Status", status: "Failure", message: "Unauthorized", reason: "Unauthorized", code: 401 });
    }
  });

  it.each(publicRoots)("lets anonymous requests (no bearer token) read %s", async (path) => {
    expect((await s.request(path, { token: null })).status).toBe(200);
    // Another scheme, or an empty bearer token, is no token (upstream bearertoken.go).
    for (const authorization of ["Basic YWRtaW46eA==", "Bearer", "Bearer ", "test-token"])
      expect((await s.request(path, { token: null, headers: { Authorization: authorization } })).status, authorization).toBe(200);
  });

  it("takes the first word after Bearer as the token, as upstream's split on spaces", async () => {
    expect((await s.request("/metrics", { token: null, headers: { Authorization: "Bearer test-token extra" } })).status).toBe(200);
    expect((await s.request("/metrics", { token: null, headers: { Authorization: "bearer test-token" } })).status).toBe(200);
    expect((await s.request("/metrics", { token: null, headers: { Authorization: "Bearer wrong test-token" } })).status).toBe(401);
  });
});

describe("health endpoints", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it("lists kube-apiserver's checks with ?verbose", async () => {
    const live = ok(["ping", "log", "etcd", ...hooks]);
    for (const root of ["healthz", "livez"]) {
      const r = await s.request(`/${root}?verbose`, { token: null });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(r.text).toBe(`${live}${root} check passed\n`);
    }
    const ready = await s.request("/readyz?verbose", { token: null });
    expect(ready.text).toBe(`${ok(["ping", "log", "etcd", "etcd-readiness", "informer-sync", ...hooks, "shutdown"])}readyz check passed\n`);
    expect((await s.request("/readyz", { token: null })).text).toBe("ok");
  });

  it("excludes a check with ?exclude and warns about unknown names", async () => {
    const r = await s.request("/readyz?verbose&exclude=etcd&exclude=nope", { token: null });
    expect(r.text).toContain("[+]etcd excluded: ok\n");
    expect(r.text).toContain('warn: some health checks cannot be excluded: no matches for "nope"\n');
    expect(r.text.endsWith("readyz check passed\n")).toBe(true);
  });

  it("serves each check on its own path and 404 for an unknown one", async () => {
    for (const path of [
      "/healthz/ping",
      "/healthz/log",
      "/livez/etcd",
      "/readyz/etcd-readiness",
      "/readyz/informer-sync",
      "/readyz/shutdown",
      ...hooks.map((h) => `/livez/${h}`),
    ]) {
      const r = await s.request(path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toBe("ok");
    }
    for (const path of ["/healthz/nope", "/livez/shutdown", "/healthz/etcd-readiness", "/readyz/poststarthook/nope"]) {
      const r = await s.request(path);
      expect(r.status, path).toBe(404);
      expect(r.json()).toMatchObject({ kind: "Status", reason: "NotFound", code: 404 });
    }
  });

  it("keeps the check paths closed to anonymous requests (upstream: system:monitoring only, 403) and a wrong token is 401", async () => {
    const anon = await s.request("/readyz/etcd", { token: null });
    expect(anon.status).toBe(403);
    expect(anon.json()).toMatchObject({
      reason: "Forbidden",
      message: 'forbidden: User "system:anonymous" cannot get path "/readyz/etcd"',
    });
    expect((await s.request("/readyz/etcd", { token: "wrong" })).status).toBe(401);
  });
});

describe("health answers", () => {
  const broken = namedCheck("etcd", () => {
    throw new Error("context deadline exceeded");
  });

  it("fails the root with 500, every check listed and the reason withheld", async () => {
    expect(await rootHealth("readyz", [pingHealthz, broken], new URLSearchParams())).toEqual({
      code: 500,
      body: "[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n",
    });
  });

  it("passes the root once the failing check is excluded", async () => {
    expect(await rootHealth("livez", [pingHealthz, broken], new URLSearchParams("exclude=etcd"))).toEqual({ code: 200, body: "ok" });
  });

  it("gives the error on the check's own path", async () => {
    expect(await singleHealth(broken)).toEqual({ code: 500, body: "internal server error: context deadline exceeded\n" });
    expect(await singleHealth(pingHealthz)).toEqual({ code: 200, body: "ok" });
  });
});

describe("health of a server whose hook or datastore is not ready", () => {
  it("fails the roots and the check's path until the hook finished, and when storage fails", async () => {
    const store = await createStore({ backend: "memory" });
    let finished = false;
    const server = await startServer({ store, port: 0, postStartHooks: [postStartHookHealthz("x", () => finished)] });
    try {
      const get = async (path: string): Promise<[number, string]> => {
        const r = await fetch(`${server.url}${path}`);
        return [r.status, await r.text()];
      };
      expect(await get("/readyz")).toEqual([
        500,
        `${ok(["ping", "log", "etcd", "etcd-readiness", "informer-sync"])}[-]poststarthook/x failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n`,
      ]);
      expect((await get("/livez"))[0]).toBe(500);
      expect(await get("/healthz/poststarthook/x")).toEqual([500, "internal server error: not finished\n"]);
      finished = true;
      expect(await get("/readyz")).toEqual([200, "ok"]);
      store.currentRevision = () => Promise.reject(new Error("etcdserver: request timed out"));
      expect(await get("/healthz")).toEqual([
        500,
        `${ok(["ping", "log"])}[-]etcd failed: reason withheld\n${ok(["poststarthook/x"])}healthz check failed\n`,
      ]);
      expect(await get("/livez/etcd")).toEqual([500, "internal server error: etcdserver: request timed out\n"]);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
