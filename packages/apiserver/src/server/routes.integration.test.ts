/**
 * go-restful's routing for every served resource, read from discovery (what clients see): each
 * method a path has no route for is 405 with kube-apiserver's Status, a path without routes 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

interface APIResource {
  name: string;
  namespaced: boolean;
  verbs: string[];
}
interface Case {
  path: string;
  /** Methods the path serves, by the verbs discovery lists. */
  allowed: string[];
}

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"];
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
const notFound = { ...methodNotAllowed, message: "the server could not find the requested resource", reason: "NotFound", code: 404 };

const when = (verbs: string[], pairs: [string, string][]): string[] => pairs.filter(([, v]) => verbs.includes(v)).map(([m]) => m);

/** upstream installer.go's routes for one discovery entry (a resource or `resource/subresource`). */
function casesFor(prefix: string, r: APIResource): Case[] {
  const scope = r.namespaced ? `${prefix}/namespaces/default` : prefix;
  const [resource, subresource] = r.name.split("/") as [string, string | undefined];
  if (subresource !== undefined) {
    return [
      {
        path: `${scope}/${resource}/x/${subresource}`,
        allowed: when(r.verbs, [
          ["POST", "create"],
          ["GET", "get"],
          ["PUT", "update"],
          ["PATCH", "patch"],
        ]),
      },
    ];
  }
  const cases: Case[] = [
    {
      path: `${scope}/${resource}`,
      allowed: when(r.verbs, [
        ["GET", "list"],
        ["POST", "create"],
        ["DELETE", "deletecollection"],
      ]),
    },
    {
      path: `${scope}/${resource}/x`,
      allowed: when(r.verbs, [
        ["GET", "get"],
        ["PUT", "update"],
        ["PATCH", "patch"],
        ["DELETE", "delete"],
      ]),
    },
  ];
  if (r.namespaced) cases.push({ path: `${prefix}/${resource}`, allowed: when(r.verbs, [["GET", "list"]]) });
  if (r.verbs.includes("watch")) {
    const watchScope = r.namespaced ? `${prefix}/watch/namespaces/default` : `${prefix}/watch`;
    cases.push({ path: `${watchScope}/${resource}`, allowed: ["GET"] }, { path: `${watchScope}/${resource}/x`, allowed: ["GET"] });
  }
  return cases;
}

describe("405 and 404 as go-restful routes them, for every served resource", () => {
  let s: TestServer;
  const cases: Case[] = [];
  beforeAll(async () => {
    s = await startTestServer({ runtimeConfig: "api/all=true" });
    const groups = (await s.request("/apis")).json() as { groups: { versions: { groupVersion: string }[] }[] };
    const prefixes = ["/api/v1", ...groups.groups.flatMap((g) => g.versions.map((v) => `/apis/${v.groupVersion}`))];
    for (const prefix of prefixes) {
      const list = (await s.request(prefix)).json() as { resources: APIResource[] };
      for (const r of list.resources) cases.push(...casesFor(prefix, r));
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it("covers every kind servicenet serves", () => {
    const paths = cases.map((c) => c.path);
    expect(paths.length).toBeGreaterThan(100);
    for (const p of [
      "/api/v1/namespaces/default/services",
      "/api/v1/namespaces/default/services/x/status",
      "/api/v1/namespaces/x/finalize",
      "/apis/networking.k8s.io/v1/servicecidrs",
      "/apis/networking.k8s.io/v1beta1/ipaddresses/x",
      "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
      "/apis/events.k8s.io/v1/namespaces/default/events",
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      "/apis/rbac.authorization.k8s.io/v1/clusterroles/x",
    ])
      expect(paths).toContain(p);
  });

  it("answers 405 with kube-apiserver's Status for each method a path has no route for", async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      for (const m of methods.filter((m) => !c.allowed.includes(m))) {
        const r = await s.request(c.path, {
          method: m,
          headers: { "Content-Type": "application/json" },
          body: m === "GET" ? undefined : "{}",
        });
        const want = c.allowed.length === 0 ? notFound : methodNotAllowed;
        if (r.status !== want.code || JSON.stringify(r.json()) !== JSON.stringify(want))
          wrong.push(`${m} ${c.path}: ${r.status} ${r.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ["PUT", "/api/v1/namespaces/default/services"],
    ["PATCH", "/api/v1/namespaces/default/services"],
    ["POST", "/api/v1/namespaces/default/services/kubernetes"],
    ["PUT", "/apis/networking.k8s.io/v1/servicecidrs"],
    ["DELETE", "/api/v1/namespaces"],
    ["POST", "/api/v1/services"],
    ["DELETE", "/api/v1/services"],
    ["GET", "/api/v1/namespaces/default/finalize"],
    ["DELETE", "/api/v1/namespaces/default/services/kubernetes/status"],
    ["PUT", "/api/v1/watch/namespaces/default/services/kubernetes"],
    ["GET", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"],
    ["OPTIONS", "/api/v1/namespaces/default/services"],
  ])("%s %s is 405", async (method, path) => {
    const r = await s.request(path, { method, headers: { "Content-Type": "application/json" }, body: method === "GET" ? undefined : "{}" });
    expect(r.status).toBe(405);
    expect(r.json()).toEqual(methodNotAllowed);
  });

  it.each([
    "/api/v1/namespaces/default/services/kubernetes/status/extra",
    "/api/v1/namespaces/default/services/kubernetes/scale",
    "/api/v1/services/kubernetes",
    "/api/v1/widgets",
    "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x",
  ])("GET %s is go-restful's 404", async (path) => {
    const r = await s.request(path);
    expect(r.status).toBe(404);
    expect(r.json()).toEqual(notFound);
  });

  // Go's server keeps dot segments (URL parsing in Node drops them): `roles/.` is an item named
  // "." (an item GET ignores ?watch), not the roles collection, so this is one Status, not a stream.
  it('a "." name segment stays a name: an item GET answered with one Status, not a collection watch', async () => {
    const r = await s.request("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/.?watch=1&timeoutSeconds=1");
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect((r.json() as { kind: string }).kind).toBe("Status");
  });

  it("a v1 Endpoints 405 carries no deprecation warning (no handler ran)", async () => {
    const r = await s.request("/api/v1/namespaces/default/endpoints", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(r.status).toBe(405);
    expect(r.headers.get("warning")).toBeNull();
  });
});
