import { describe, expect, it } from "vitest";
import { parseRequestInfo } from "./request-info.ts";

const q = (s = "") => new URLSearchParams(s);

describe("parseRequestInfo (upstream RequestInfoFactory)", () => {
  it.each([
    ["GET", "/api/v1/services", "", { group: "", namespace: undefined, resource: "services", name: "", subresource: "", verb: "list" }],
    ["GET", "/api/v1/namespaces/default/services", "", { namespace: "default", resource: "services", verb: "list" }],
    ["GET", "/api/v1/namespaces/default/services", "watch=true", { namespace: "default", resource: "services", verb: "watch" }],
    ["GET", "/api/v1/namespaces/default/services", "watch=True", { verb: "watch" }],
    ["GET", "/api/v1/namespaces/default/services", "watch=", { verb: "watch" }],
    ["GET", "/api/v1/namespaces/default/services", "watch=FALSE", { verb: "list" }],
    ["GET", "/api/v1/namespaces/default/services", "watch=0&watch=1", { verb: "list" }],
    // An item GET stays a get whatever ?watch says; only the /watch/ prefix watches one object.
    ["GET", "/api/v1/namespaces/default/services/web", "watch=true", { name: "web", verb: "get" }],
    ["GET", "/api/v1/watch/namespaces/default/services/web", "", { name: "web", verb: "watch" }],
    ["GET", "/api/v1/watch/namespaces/default/services", "", { namespace: "default", resource: "services", verb: "watch" }],
    // The /watch/ prefix serves GET only: a PUT there was once stored as a status update (found by the e2e fuzz).
    [
      "PUT",
      "/api/v1/watch/namespaces/fuzz/services/fuzz-svc/status",
      "",
      { namespace: "fuzz", resource: "services", name: "fuzz-svc", subresource: "status", verb: "" },
    ],
    ["DELETE", "/api/v1/watch/namespaces/default/services/web", "", { namespace: "default", resource: "services", name: "web", verb: "" }],
    ["GET", "/api/v1/namespaces/default/services/web", "", { name: "web", verb: "get" }],
    ["PUT", "/api/v1/namespaces/default/services/web/status", "", { name: "web", subresource: "status", verb: "update" }],
    ["GET", "/api/v1/namespaces/default", "", { namespace: undefined, resource: "namespaces", name: "default", verb: "get" }],
    ["PUT", "/api/v1/namespaces/default/status", "", { resource: "namespaces", name: "default", subresource: "status", verb: "update" }],
    [
      "DELETE",
      "/apis/networking.k8s.io/v1/servicecidrs",
      "",
      { group: "networking.k8s.io", version: "v1", resource: "servicecidrs", verb: "deletecollection" },
    ],
    ["DELETE", "/apis/networking.k8s.io/v1/servicecidrs/kubernetes", "", { name: "kubernetes", verb: "delete" }],
    [
      "PATCH",
      "/apis/discovery.k8s.io/v1/namespaces/ns1/endpointslices/s",
      "",
      { group: "discovery.k8s.io", namespace: "ns1", resource: "endpointslices", name: "s", verb: "patch" },
    ],
    ["POST", "/api/v1/namespaces/default/services", "", { verb: "create" }],
    ["OPTIONS", "/api/v1/services", "", { verb: "" }],
  ])("%s %s?%s", (method, path, query, want) => {
    expect(parseRequestInfo(path, method, q(query))).toMatchObject(want);
  });

  it.each(["/api", "/api/v1", "/apis/networking.k8s.io", "/apis/networking.k8s.io/v1", "/healthz"])("%s is not a resource path", (p) => {
    expect(parseRequestInfo(p, "GET", q())).toBeUndefined();
  });

  it("keeps extra segments so they can be refused", () => {
    expect(parseRequestInfo("/api/v1/namespaces/default/services/web/status/x", "GET", q())?.extra).toEqual(["x"]);
  });
});
