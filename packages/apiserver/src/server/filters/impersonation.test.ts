import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import type { UserInfo } from "../../authentication/user/user.ts";
import type { Attributes, AuthorizationResult, Authorizer } from "../../authorization/authorizer/interfaces.ts";
import { ImpersonationRequestError, buildImpersonationRequests, impersonate } from "./impersonation.ts";

/** impersonation_test.go's impersonateAuthorizer. */
const impersonateAuthorizer: Authorizer = {
  authorize(a: Attributes): AuthorizationResult {
    const u = a.user!;
    const g = u.groups;
    const allow: AuthorizationResult = { decision: "Allow", reason: "" };
    if (u.name === "system:admin") return allow;
    if (u.name === "tester") return { decision: "NoOpinion", reason: "", error: "works on my machine" };
    if (u.name === "deny-me") return { decision: "NoOpinion", reason: "denied" };
    const imp = a.verb === "impersonate";
    if (g[0] === "wheel" && imp && a.resource === "users") return allow;
    if (g[0] === "sa-impersonater" && imp && a.resource === "serviceaccounts") return allow;
    if (g[0] === "regular-impersonater" && imp && a.resource === "users") return allow;
    if (g[1] === "group-impersonater" && imp && a.resource === "groups") return allow;
    if (g[1] === "extra-setter-scopes" && imp && a.resource === "userextras" && a.subresource === "scopes") return allow;
    if (g[1] === "escaped-scopes" || g[1] === "almost-escaped-scopes") return allow;
    if (
      g[1] === "extra-setter-particular-scopes" &&
      imp &&
      a.resource === "userextras" &&
      a.subresource === "scopes" &&
      a.name === "scope-a" &&
      a.apiGroup === "authentication.k8s.io"
    )
      return allow;
    if (
      g[1] === "extra-setter-project" &&
      imp &&
      a.resource === "userextras" &&
      a.subresource === "project" &&
      a.apiGroup === "authentication.k8s.io"
    )
      return allow;
    if (g[0] === "everything-impersonater" && imp) {
      if (a.resource === "users" && a.apiGroup === "") return allow;
      if (a.resource === "uids" && a.name === "some-uid" && a.apiGroup === "authentication.k8s.io") return allow;
      if (a.resource === "groups" && a.apiGroup === "") return allow;
      if (a.resource === "userextras" && a.subresource === "scopes" && a.apiGroup === "authentication.k8s.io") return allow;
    }
    return { decision: "NoOpinion", reason: "deny by default" };
  },
};

interface Case {
  name: string;
  user: UserInfo;
  impersonationUser?: string;
  impersonationGroups?: string[];
  impersonationUserExtras?: Record<string, string[]>;
  impersonationUid?: string;
  expectedUser?: UserInfo;
  expectedCode: number;
}

const u = (name: string, groups: string[] = [], extra?: Record<string, string[]>, uid = ""): UserInfo => ({
  name,
  uid,
  groups,
  ...(extra ? { extra } : {}),
});

// TestImpersonationFilter's table, by name (expectedUser only where the request goes on).
const cases: Case[] = [
  { name: "not-impersonating", user: u("tester"), expectedUser: u("tester"), expectedCode: 200 },
  { name: "impersonating-error", user: u("tester"), impersonationUser: "anyone", expectedCode: 403 },
  { name: "impersonating-group-without-user", user: u("tester"), impersonationGroups: ["some-group"], expectedCode: 500 },
  { name: "impersonating-extra-without-user", user: u("tester"), impersonationUserExtras: { scopes: ["scope-a"] }, expectedCode: 500 },
  { name: "impersonating-uid-without-user", user: u("tester"), impersonationUid: "some-uid", expectedCode: 500 },
  {
    name: "disallowed-group",
    user: u("dev", ["wheel"]),
    impersonationUser: "system:admin",
    impersonationGroups: ["some-group"],
    expectedCode: 403,
  },
  {
    name: "allowed-group",
    user: u("dev", ["wheel", "group-impersonater"]),
    impersonationUser: "system:admin",
    impersonationGroups: ["some-group"],
    expectedUser: u("system:admin", ["some-group", "system:authenticated"]),
    expectedCode: 200,
  },
  {
    name: "disallowed-userextra-1",
    user: u("dev", ["wheel"]),
    impersonationUser: "system:admin",
    impersonationGroups: ["some-group"],
    impersonationUserExtras: { scopes: ["scope-a"] },
    expectedCode: 403,
  },
  {
    name: "disallowed-userextra-2",
    user: u("dev", ["wheel", "extra-setter-project"]),
    impersonationUser: "system:admin",
    impersonationGroups: ["some-group"],
    impersonationUserExtras: { scopes: ["scope-a"] },
    expectedCode: 403,
  },
  {
    name: "disallowed-userextra-3",
    user: u("dev", ["wheel", "extra-setter-particular-scopes"]),
    impersonationUser: "system:admin",
    impersonationGroups: ["some-group"],
    impersonationUserExtras: { scopes: ["scope-a", "scope-b"] },
    expectedCode: 403,
  },
  {
    name: "allowed-userextras",
    user: u("dev", ["wheel", "extra-setter-scopes"]),
    impersonationUser: "system:admin",
    impersonationUserExtras: { scopes: ["scope-a", "scope-b"] },
    expectedUser: u("system:admin", ["system:authenticated"], { scopes: ["scope-a", "scope-b"] }),
    expectedCode: 200,
  },
  {
    name: "percent-escaped-userextras",
    user: u("dev", ["wheel", "escaped-scopes"]),
    impersonationUser: "system:admin",
    impersonationUserExtras: { "example.com%2fescaped%e1%9b%84scopes": ["scope-a", "scope-b"] },
    expectedUser: u("system:admin", ["system:authenticated"], { "example.com/escapedᛄscopes": ["scope-a", "scope-b"] }),
    expectedCode: 200,
  },
  {
    name: "almost-percent-escaped-userextras",
    user: u("dev", ["wheel", "almost-escaped-scopes"]),
    impersonationUser: "system:admin",
    impersonationUserExtras: { "almost%zzpercent%xxencoded": ["scope-a", "scope-b"] },
    expectedUser: u("system:admin", ["system:authenticated"], { "almost%zzpercent%xxencoded": ["scope-a", "scope-b"] }),
    expectedCode: 200,
  },
  {
    name: "allowed-users-impersonation",
    user: u("dev", ["regular-impersonater"]),
    impersonationUser: "tester",
    expectedUser: u("tester", ["system:authenticated"]),
    expectedCode: 200,
  },
  { name: "disallowed-impersonating", user: u("dev", ["sa-impersonater"]), impersonationUser: "tester", expectedCode: 403 },
  {
    name: "allowed-sa-impersonating",
    user: u("dev", ["sa-impersonater"]),
    impersonationUser: "system:serviceaccount:foo:default",
    expectedUser: u("system:serviceaccount:foo:default", ["system:serviceaccounts", "system:serviceaccounts:foo", "system:authenticated"]),
    expectedCode: 200,
  },
  {
    name: "anonymous-username-prevents-adding-authenticated-group",
    user: u("system:admin"),
    impersonationUser: "system:anonymous",
    expectedUser: u("system:anonymous", ["system:unauthenticated"]),
    expectedCode: 200,
  },
  {
    name: "unauthenticated-group-prevents-adding-authenticated-group",
    user: u("system:admin"),
    impersonationUser: "unknown",
    impersonationGroups: ["system:unauthenticated"],
    expectedUser: u("unknown", ["system:unauthenticated"]),
    expectedCode: 200,
  },
  {
    name: "unauthenticated-group-prevents-double-adding-authenticated-group",
    user: u("system:admin"),
    impersonationUser: "unknown",
    impersonationGroups: ["system:authenticated"],
    expectedUser: u("unknown", ["system:authenticated"]),
    expectedCode: 200,
  },
  {
    name: "specified-authenticated-group-prevents-double-adding-authenticated-group",
    user: u("dev", ["wheel", "group-impersonater"]),
    impersonationUser: "system:admin",
    impersonationGroups: ["some-group", "system:authenticated"],
    expectedUser: u("system:admin", ["some-group", "system:authenticated"]),
    expectedCode: 200,
  },
  {
    name: "anonymous-user-should-include-unauthenticated-group",
    user: u("system:admin"),
    impersonationUser: "system:anonymous",
    expectedUser: u("system:anonymous", ["system:unauthenticated"]),
    expectedCode: 200,
  },
  {
    name: "anonymous-user-prevents-double-adding-unauthenticated-group",
    user: u("system:admin"),
    impersonationUser: "system:anonymous",
    impersonationGroups: ["system:unauthenticated"],
    expectedUser: u("system:anonymous", ["system:unauthenticated"]),
    expectedCode: 200,
  },
  {
    name: "allowed-user-impersonation-with-uid",
    user: u("dev", ["everything-impersonater"]),
    impersonationUser: "tester",
    impersonationUid: "some-uid",
    expectedUser: u("tester", ["system:authenticated"], undefined, "some-uid"),
    expectedCode: 200,
  },
  {
    name: "disallowed-user-impersonation-with-uid",
    user: u("dev", ["everything-impersonater"]),
    impersonationUser: "tester",
    impersonationUid: "disallowed-uid",
    expectedCode: 403,
  },
  {
    name: "allowed-impersonation-with-all-headers",
    user: u("dev", ["everything-impersonater"]),
    impersonationUser: "tester",
    impersonationUid: "some-uid",
    impersonationGroups: ["system:authenticated"],
    impersonationUserExtras: { scopes: ["scope-a", "scope-b"] },
    expectedUser: u("tester", ["system:authenticated"], { scopes: ["scope-a", "scope-b"] }, "some-uid"),
    expectedCode: 200,
  },
];

function headersOf(c: Case): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = {};
  if (c.impersonationUser) h["impersonate-user"] = c.impersonationUser;
  if (c.impersonationGroups) h["impersonate-group"] = c.impersonationGroups;
  for (const [k, v] of Object.entries(c.impersonationUserExtras ?? {})) h[`impersonate-extra-${k}`] = v;
  if (c.impersonationUid) h["impersonate-uid"] = c.impersonationUid;
  return h;
}

describe("TestImpersonationFilter", () => {
  it.each(cases)("$name", async (c) => {
    let code = 200;
    let got: UserInfo | undefined;
    try {
      got = await impersonate(impersonateAuthorizer, c.user, headersOf(c));
    } catch (e) {
      if (e instanceof StatusError) code = e.code;
      else if (e instanceof ImpersonationRequestError) code = 500;
      else throw e;
    }
    expect(code).toBe(c.expectedCode);
    if (c.expectedUser) expect(got).toEqual(c.expectedUser);
  });

  it("refuses with upstream's Forbidden message naming the impersonated resource", async () => {
    const err = await impersonate(impersonateAuthorizer, u("dev", ["sa-impersonater"]), { "impersonate-user": "tester" }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).message).toBe(
      'users "tester" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope: deny by default',
    );
    const sa = await impersonate(impersonateAuthorizer, u("dev", ["wheel"]), {
      "impersonate-user": "system:serviceaccount:ns1:builder",
    }).catch((e: unknown) => e);
    expect((sa as StatusError).message).toBe(
      'serviceaccounts "builder" is forbidden: User "dev" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1": deny by default',
    );
  });

  it("names the requests in the error of groups without a user", () => {
    expect(() => buildImpersonationRequests({ "impersonate-group": ["a", "b"] })).toThrow(
      "requested [{Group  a    } {Group  b    }] without impersonating a user",
    );
  });
});
