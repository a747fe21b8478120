// After staging/src/k8s.io/apiserver/pkg/endpoints/filters/authorization_test.go (TestGetAuthorizerAttributes)
// and responsewriters/errors_test.go (TestForbidden).
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { attributes, type Authorizer } from "../../authorization/authorizer/interfaces.ts";
import { authorizeRequest, forbiddenStatusError, getAuthorizerAttributes } from "./authorization.ts";

const alice = { name: "alice", uid: "", groups: ["system:authenticated"] };
const q = (s = "") => new URLSearchParams(s);

describe("TestGetAuthorizerAttributes", () => {
  const cases: { name: string; method: string; path: string; query?: string; want: Partial<ReturnType<typeof getAuthorizerAttributes>> }[] =
    [
      { name: "non-resource root", method: "GET", path: "/", want: { verb: "get", path: "/", resourceRequest: false } },
      {
        name: "non-resource healthz with trailing slash",
        method: "GET",
        path: "/version/",
        want: { verb: "get", path: "/version/", resourceRequest: false },
      },
      {
        name: "discovery is non-resource",
        method: "GET",
        path: "/apis/networking.k8s.io/v1",
        want: { verb: "get", resourceRequest: false, path: "/apis/networking.k8s.io/v1" },
      },
      { name: "non-resource post", method: "POST", path: "/metrics", want: { verb: "post", resourceRequest: false } },
      {
        name: "namespaced list",
        method: "GET",
        path: "/api/v1/namespaces/default/services",
        want: { verb: "list", namespace: "default", apiGroup: "", apiVersion: "v1", resource: "services", resourceRequest: true },
      },
      {
        name: "subresource",
        method: "PUT",
        path: "/apis/networking.k8s.io/v1/servicecidrs/kubernetes/status",
        want: {
          verb: "update",
          namespace: "",
          apiGroup: "networking.k8s.io",
          resource: "servicecidrs",
          subresource: "status",
          name: "kubernetes",
        },
      },
      {
        name: "watch by query",
        method: "GET",
        path: "/api/v1/services",
        query: "watch=true",
        want: { verb: "watch", resource: "services" },
      },
      {
        name: "deletecollection",
        method: "DELETE",
        path: "/api/v1/namespaces/ns/services",
        want: { verb: "deletecollection", namespace: "ns" },
      },
      {
        name: "list by metadata.name field selector is about that name",
        method: "GET",
        path: "/api/v1/namespaces/ns/services",
        query: "fieldSelector=metadata.name%3Dweb",
        want: { verb: "list", name: "web" },
      },
      {
        name: "a namespace is in its own namespace",
        method: "GET",
        path: "/api/v1/namespaces/ns",
        want: { verb: "get", resource: "namespaces", name: "ns", namespace: "ns" },
      },
    ];
  for (const tc of cases) {
    it(tc.name, () => {
      expect(getAuthorizerAttributes(alice, tc.method, tc.path, q(tc.query))).toMatchObject({ user: alice, ...tc.want });
    });
  }
});

describe("TestForbidden", () => {
  const res = (a: Partial<Parameters<typeof attributes>[0]>) => attributes({ verb: "list", user: alice, resourceRequest: true, ...a });
  it("namespaced, cluster-scoped, named, subresource and non-resource messages", () => {
    const ns = forbiddenStatusError(res({ resource: "services", namespace: "default" }), "");
    expect(ns.status).toMatchObject({
      reason: "Forbidden",
      code: 403,
      message: 'services is forbidden: User "alice" cannot list resource "services" in API group "" in the namespace "default"',
    });
    // upstream TestForbidden: "details":{"kind":"pods"} (empty fields omitted).
    expect(JSON.stringify(ns.status.details)).toBe('{"kind":"services"}');
    expect(
      forbiddenStatusError(res({ verb: "get", resource: "servicecidrs", apiGroup: "networking.k8s.io", name: "kubernetes" }), "").message,
    ).toBe(
      'servicecidrs.networking.k8s.io "kubernetes" is forbidden: User "alice" cannot get resource "servicecidrs" in API group "networking.k8s.io" at the cluster scope',
    );
    expect(
      forbiddenStatusError(res({ verb: "update", resource: "services", subresource: "status", name: "web", namespace: "a" }), "RBAC: x")
        .message,
    ).toBe(
      'services "web" is forbidden: User "alice" cannot update resource "services/status" in API group "" in the namespace "a": RBAC: x',
    );
    const nr = forbiddenStatusError(attributes({ verb: "get", user: alice, path: "/metrics" }), "");
    expect(nr.message).toBe('forbidden: User "alice" cannot get path "/metrics"');
    expect(JSON.stringify(nr.status.details)).toBe("{}");
  });
});

describe("authorizeRequest", () => {
  const deny: Authorizer = { authorize: () => ({ decision: "NoOpinion", reason: "" }) };
  it("allows everything without an authorizer and asks as system:anonymous without a user", async () => {
    await expect(authorizeRequest(undefined, undefined, "GET", "/metrics", q())).resolves.toBeUndefined();
    const err = await authorizeRequest(deny, undefined, "GET", "/metrics", q()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
  });
  it("lets an Allow through even with an evaluation error, and makes a NoOpinion with an error a 500", async () => {
    await expect(
      authorizeRequest({ authorize: () => ({ decision: "Allow", reason: "", error: "x" }) }, alice, "GET", "/", q()),
    ).resolves.toBeUndefined();
    const err = (await authorizeRequest(
      { authorize: () => ({ decision: "NoOpinion", reason: "", error: "boom" }) },
      alice,
      "GET",
      "/",
      q(),
    ).catch((e: unknown) => e)) as StatusError;
    expect(err.code).toBe(500);
  });
});

// authorization_test.go TestGetAuthorizerAttributes' selector cases (AuthorizeWithSelectors).
describe("TestGetAuthorizerAttributes with selectors", () => {
  const list = "/api/v1/namespaces/ns/services";
  const cases: { name: string; method: string; path: string; query: string; gate?: boolean; want: Record<string, unknown> }[] = [
    {
      name: "list: both selectors as requirements",
      method: "GET",
      path: list,
      query: "fieldSelector=spec.type%3DNodePort&labelSelector=app%20in%20(web)",
      want: {
        fieldSelectorRequirements: [{ field: "spec.type", operator: "=", value: "NodePort" }],
        labelSelectorRequirements: [{ key: "app", operator: "in", values: ["web"] }],
      },
    },
    {
      name: "watch: a label selector that does not parse is kept as the error",
      method: "GET",
      path: list,
      query: "watch=true&labelSelector=a%3D%3D%3Db",
      want: { labelSelectorParsingErr: expect.any(String) },
    },
    {
      name: "deletecollection: a field selector that does not parse is kept as the error",
      method: "DELETE",
      path: list,
      query: "fieldSelector=spec.type",
      want: { fieldSelectorParsingErr: "invalid selector: 'spec.type'; can't understand 'spec.type'" },
    },
    { name: "get: no selectors", method: "GET", path: `${list}/web`, query: "labelSelector=app%3Dweb", want: {} },
    { name: "the /watch/ prefix: no selectors", method: "GET", path: "/api/v1/watch/services", query: "labelSelector=app%3Dweb", want: {} },
    { name: "gate off: no selectors", method: "GET", path: list, query: "labelSelector=app%3Dweb", gate: false, want: {} },
  ];
  const selectorKeys = ["fieldSelectorRequirements", "fieldSelectorParsingErr", "labelSelectorRequirements", "labelSelectorParsingErr"];
  for (const tc of cases) {
    it(tc.name, () => {
      const a = getAuthorizerAttributes(alice, tc.method, tc.path, q(tc.query), undefined, tc.gate ?? true);
      const got = Object.fromEntries(Object.entries(a).filter(([k]) => selectorKeys.includes(k)));
      expect(got).toEqual(tc.want);
    });
  }
});
