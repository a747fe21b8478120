/**
 * The server parses a request's path into its request info once, for authorization and routing
 * alike, and an invalid escape is the same 400 whether or not an authorizer asked first.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Attributes, Authorizer } from "../authorization/authorizer/interfaces.ts";
import { createStore, type Store } from "../storage/index.ts";
import * as requestInfo from "./request-info.ts";
import { startServer, type RunningServer } from "./server.ts";

vi.mock("./request-info.ts", async (importOriginal) => {
  const orig = await importOriginal<typeof requestInfo>();
  return { ...orig, parseRequestInfo: vi.fn(orig.parseRequestInfo) };
});

describe("request info", () => {
  let server: RunningServer | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await server?.close();
    await store?.close();
    vi.mocked(requestInfo.parseRequestInfo).mockClear();
  });

  const seen: Attributes[] = [];
  const allow: Authorizer = {
    authorize: (a) => {
      seen.push(a);
      return { decision: "Allow", reason: "" };
    },
  };

  it.each([
    { name: "with an authorizer", authorizer: allow },
    { name: "without one", authorizer: undefined },
  ])("is parsed once per request, $name", async ({ authorizer }) => {
    store = await createStore({ backend: "memory" });
    server = await startServer({ store, port: 0, ...(authorizer ? { authorizer } : {}) });
    seen.length = 0;
    vi.mocked(requestInfo.parseRequestInfo).mockClear();
    const res = await fetch(`${server.url}/api/v1/namespaces/default/services/`);
    expect(res.status).toBe(200);
    expect(requestInfo.parseRequestInfo).toHaveBeenCalledTimes(1);
    if (authorizer)
      expect(seen).toMatchObject([
        { verb: "list", resource: "services", namespace: "default", path: "/api/v1/namespaces/default/services/" },
      ]);
  });

  it.each([
    { name: "with an authorizer", authorizer: allow },
    { name: "without one", authorizer: undefined },
  ])("an invalid escape is one 400 naming the path without its trailing slash, $name", async ({ authorizer }) => {
    store = await createStore({ backend: "memory" });
    server = await startServer({ store, port: 0, ...(authorizer ? { authorizer } : {}) });
    seen.length = 0;
    const res = await fetch(`${server.url}/api/v1/namespaces/a%zz/services/`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'invalid escape in request path "/api/v1/namespaces/a%zz/services"' });
    expect(seen).toEqual([]);
  });
});
