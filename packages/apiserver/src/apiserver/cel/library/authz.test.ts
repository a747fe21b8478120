/**
 * The authz library: admission/plugin/cel/filter_test.go TestFilter's authorizer cases,
 * library/cost_test.go TestAuthzLibrary, and authz.go's argument errors.
 */
import { describe, expect, it } from "vitest";
import {
  attributes,
  type Attributes,
  type AuthorizationResult,
  type SynchronousAuthorize,
} from "../../../authorization/authorizer/interfaces.ts";
import { CELEnvironment } from "../environment.ts";
import { AuthorizerValue, authorizerType, type ResourceFields } from "./authz.ts";

const env = new CELEnvironment({ variables: { authorizer: authorizerType } });
const requester = { name: "alice", uid: "u1", groups: ["system:authenticated"] };

/** filter_test.go newAuthzAllowMatch: Allow when the request is exactly `want` (user included when given). */
function allowMatch(want: Partial<Attributes>): SynchronousAuthorize {
  const full = attributes({ user: requester, verb: "", ...want });
  return (a) => {
    const same = (Object.keys(full) as (keyof Attributes)[]).every((k) =>
      k === "user"
        ? a.user?.name === full.user?.name && (a.user?.groups ?? []).join() === (full.user?.groups ?? []).join()
        : a[k] === full[k],
    );
    return same ? { decision: "Allow", reason: "" } : { decision: "NoOpinion", reason: "" };
  };
}
const denyAll: SynchronousAuthorize = () => ({ decision: "Deny", reason: "fake reason" });
const errorAll: SynchronousAuthorize = (): AuthorizationResult => ({ decision: "NoOpinion", reason: "", error: "fake authz error" });
const allowAll: SynchronousAuthorize = () => ({ decision: "Allow", reason: "" });

const endpointCreate: ResourceFields = { group: "", resource: "endpoints", subresource: "", namespace: "default", name: "endpoints1" };

function evaluate(expr: string, authorize: SynchronousAuthorize, requestResource?: ResourceFields) {
  const r = env.compile(expr);
  if (r.error) throw r.error;
  return r.program.evaluate({ authorizer: new AuthorizerValue(requester, authorize, requestResource) });
}

describe("TestFilter authorizer cases", () => {
  const resource = (f: Partial<Attributes>) => allowMatch({ resourceRequest: true, apiVersion: "*", ...f });
  it.each([
    {
      name: "test authorizer allow resource check",
      expr: "authorizer.group('').resource('endpoints').check('create').allowed()",
      authz: resource({ resource: "endpoints", verb: "create" }),
      want: true,
    },
    {
      name: "test authorizer allow resource check (errored)",
      expr: "authorizer.group('').resource('endpoints').check('create').errored()",
      authz: resource({ resource: "endpoints", verb: "create" }),
      want: false,
    },
    {
      name: "test authorizer allow resource check with all fields",
      expr: "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
      authz: resource({
        apiGroup: "apps",
        resource: "deployments",
        subresource: "status",
        namespace: "test",
        name: "backend",
        verb: "create",
      }),
      want: true,
    },
    {
      name: "test authorizer not allowed resource check one incorrect field",
      expr: "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
      authz: resource({
        apiGroup: "apps",
        resource: "deployments-xxxx",
        subresource: "status",
        namespace: "test",
        name: "backend",
        verb: "create",
      }),
      want: false,
    },
    {
      name: "test authorizer reason",
      expr: "authorizer.group('').resource('endpoints').check('create').reason() == 'fake reason'",
      authz: denyAll,
      want: true,
    },
    {
      name: "test authorizer error (errored)",
      expr: "authorizer.group('').resource('endpoints').check('create').errored()",
      authz: errorAll,
      want: true,
    },
    {
      name: "test authorizer error (error)",
      expr: "authorizer.group('').resource('endpoints').check('create').error() == 'fake authz error'",
      authz: errorAll,
      want: true,
    },
    {
      name: "test authorizer error (allowed)",
      expr: "authorizer.group('').resource('endpoints').check('create').allowed()",
      authz: errorAll,
      want: false,
    },
    {
      name: "test authorizer allow path check",
      expr: "authorizer.path('/healthz').check('get').allowed()",
      authz: allowMatch({ path: "/healthz", verb: "get" }),
      want: true,
    },
    {
      name: "test authorizer decision is denied path check",
      expr: "authorizer.path('/healthz').check('get').allowed() == false",
      authz: denyAll,
      want: true,
    },
    {
      name: "test request resource authorizer allow check",
      expr: "authorizer.requestResource.check('custom-verb').allowed()",
      authz: resource({ resource: "endpoints", namespace: "default", name: "endpoints1", verb: "custom-verb" }),
      want: true,
    },
    {
      name: "test serviceAccount authorizer allow check",
      expr: "authorizer.serviceAccount('default', 'test-serviceaccount').group('').resource('endpoints').namespace('default').name('endpoints1').check('custom-verb').allowed()",
      authz: resource({
        user: {
          name: "system:serviceaccount:default:test-serviceaccount",
          uid: "",
          groups: ["system:serviceaccounts", "system:serviceaccounts:default"],
        },
        resource: "endpoints",
        namespace: "default",
        name: "endpoints1",
        verb: "custom-verb",
      }),
      want: true,
    },
  ])("$name", ({ expr, authz, want }) => {
    expect(evaluate(expr, authz, endpointCreate).value).toBe(want);
  });

  it("test subresource request resource authorizer allow check", () => {
    const authz = resource({ resource: "endpoints", subresource: "status", namespace: "default", name: "endpoints1", verb: "custom-verb" });
    const statusUpdate = { ...endpointCreate, subresource: "status" };
    expect(evaluate("authorizer.requestResource.check('custom-verb').allowed()", authz, statusUpdate).value).toBe(true);
    expect(evaluate("authorizer.requestResource.check('custom-verb').allowed()", authz, endpointCreate).value).toBe(false);
  });
});

describe("TestAuthzLibrary (runtime cost)", () => {
  it.each([
    { name: "path", expr: "authorizer.path('/healthz')", cost: 2 },
    {
      name: "resource",
      expr: "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')",
      cost: 6,
    },
    {
      // authorizer(1) + group(1) + resource(1) + fieldSelector(10 + ceil(71/2)*50=1800 + ceil(71*.1)=8)
      name: "fieldSelector",
      expr: "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
      cost: 1821,
    },
    {
      name: "labelSelector",
      expr: "authorizer.group('').resource('pods').labelSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
      cost: 1821,
    },
    { name: "path check allowed", expr: "authorizer.path('/healthz').check('get').allowed()", cost: 350003 },
    {
      name: "resource check allowed",
      expr: "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
      cost: 350007,
    },
    {
      name: "resource check errored",
      expr: "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').errored()",
      cost: 350007,
    },
    {
      name: "resource check error",
      expr: "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').error()",
      cost: 350007,
    },
  ])("$name", ({ expr, cost }) => {
    expect(evaluate(expr, allowAll).cost).toBe(cost);
  });

  it("allows two checks in one expression and not three (PerCallLimit)", () => {
    const check = "authorizer.group('').resource('services').check('get').allowed()";
    expect(evaluate(`${check} && ${check}`, allowAll).value).toBe(true);
    expect(() => evaluate(`${check} && ${check} && ${check}`, allowAll)).toThrow("operation cancelled: actual cost limit exceeded");
  });
});

describe("AuthzSelectors (authz.go resourceCheckVal.Authorize with AuthorizeWithSelectors)", () => {
  /** The attributes the authorizer was asked with. */
  function asked(expr: string, authorizeWithSelectors?: boolean): Attributes {
    let seen: Attributes | undefined;
    const r = env.compile(expr);
    if (r.error) throw r.error;
    const record: SynchronousAuthorize = (a) => ((seen = a), { decision: "Allow", reason: "" });
    const options = authorizeWithSelectors === undefined ? {} : { authorizeWithSelectors };
    expect(r.program.evaluate({ authorizer: new AuthorizerValue(requester, record, undefined, options) }).value).toBe(true);
    return seen!;
  }
  const pods = "authorizer.group('').resource('pods')";

  it.each([
    {
      name: "a field selector reaches the authorizer as requirements",
      expr: `${pods}.fieldSelector('spec.nodeName=mynode').check('list').allowed()`,
      want: { fieldSelectorRequirements: [{ field: "spec.nodeName", operator: "=", value: "mynode" }] },
    },
    {
      name: "a label selector reaches the authorizer as requirements",
      expr: `${pods}.labelSelector('example.com/mylabel=myvalue,tier in (a,b)').check('list').allowed()`,
      want: {
        labelSelectorRequirements: [
          { key: "example.com/mylabel", operator: "=", values: ["myvalue"] },
          { key: "tier", operator: "in", values: ["a", "b"] },
        ],
      },
    },
    {
      name: "a field selector that does not parse is a parse error, not an evaluation error",
      expr: `${pods}.fieldSelector('*bar').check('list').allowed()`,
      want: { fieldSelectorParsingErr: "invalid selector: '*bar'; can't understand '*bar'" },
    },
    {
      name: "a label selector that does not parse is a parse error",
      expr: `${pods}.labelSelector('a in (b').check('list').allowed()`,
      want: { labelSelectorParsingErr: expect.any(String) },
    },
    {
      name: "both, and the last call of each wins",
      expr: `${pods}.fieldSelector('a=b').fieldSelector('spec.nodeName!=x').labelSelector('app').check('list').allowed()`,
      want: {
        fieldSelectorRequirements: [{ field: "spec.nodeName", operator: "!=", value: "x" }],
        labelSelectorRequirements: [{ key: "app", operator: "exists", values: [] }],
      },
    },
    { name: "empty selectors are none", expr: `${pods}.fieldSelector('').labelSelector('').check('list').allowed()`, want: {} },
  ])("$name", ({ expr, want }) => {
    const a = asked(expr);
    const selectors = Object.fromEntries(Object.entries(a).filter(([k]) => k.includes("Selector")));
    expect(selectors).toEqual(want);
    expect(a).toMatchObject({ resourceRequest: true, resource: "pods", verb: "list", apiVersion: "*" });
  });

  it("drops the selectors when AuthorizeWithSelectors is off", () => {
    const a = asked(`${pods}.fieldSelector('spec.nodeName=mynode').labelSelector('app=x').check('list').allowed()`, false);
    expect(Object.keys(a).filter((k) => k.includes("Selector"))).toEqual([]);
  });

  it("keeps the selectors on the service account's checks", () => {
    const a = asked(`authorizer.serviceAccount('default', 'sa').group('').resource('pods').fieldSelector('a=b').check('list').allowed()`);
    expect(a.user?.name).toBe("system:serviceaccount:default:sa");
    expect(a.fieldSelectorRequirements).toEqual([{ field: "a", operator: "=", value: "b" }]);
  });

  it("types the builders as authz.go declares them", () => {
    expect(env.check(`${pods}.fieldSelector('a=b')`).type).toBe("kubernetes.authorization.ResourceCheck");
    expect(env.check(`${pods}.labelSelector('a=b')`).type).toBe("kubernetes.authorization.ResourceCheck");
    expect(env.check("authorizer.path('/x').fieldSelector('a=b')").error).toBeDefined();
    expect(env.check(`${pods}.labelSelector(1)`).error).toBeDefined();
  });
});

describe("authz.go errors and types", () => {
  it.each([
    { expr: "authorizer.path(' ').check('get').allowed()", err: "path must not be empty" },
    { expr: "authorizer.group('').resource('').check('get').allowed()", err: "resource must not be empty" },
    { expr: "authorizer.serviceAccount('default', 'Bad_Name').path('/x').check('get').allowed()", err: "Invalid service account name" },
    { expr: "authorizer.serviceAccount('a.b', 'sa').path('/x').check('get').allowed()", err: "Invalid service account namespace" },
  ])("$err", ({ expr, err }) => {
    expect(() => evaluate(expr, allowAll)).toThrow(err);
  });

  it("types each step as authz.go declares it", () => {
    expect(env.check("authorizer.path('/healthz')").type).toBe("kubernetes.authorization.PathCheck");
    expect(env.check("authorizer.group('')").type).toBe("kubernetes.authorization.GroupCheck");
    expect(env.check("authorizer.group('').resource('pods').name('a')").type).toBe("kubernetes.authorization.ResourceCheck");
    expect(env.check("authorizer.requestResource").type).toBe("kubernetes.authorization.ResourceCheck");
    expect(env.check("authorizer.path('/x').check('get')").type).toBe("kubernetes.authorization.Decision");
    expect(env.check("authorizer.serviceAccount('ns', 'sa')").type).toBe("kubernetes.authorization.Authorizer");
    expect(env.check("authorizer.path(1)").error).toBeDefined();
    expect(env.check("authorizer.group('').check('get')").error).toBeDefined();
    expect(env.check("authorizer.foo").error).toBeDefined();
  });
});

// environment/base.go: without StrictCostOpt (StrictCostEnforcementForVAP/ForWebhooks off) no
// library cost estimator is installed, and cel-go charges a library call its step alone.
describe("runtime cost without the library cost estimator (strictCost false)", () => {
  const lenient = new CELEnvironment({ variables: { authorizer: authorizerType }, strictCost: false });
  const cost = (e: CELEnvironment, expr: string) => {
    const r = e.compile(expr);
    if (r.error) throw r.error;
    return r.program.evaluate({ authorizer: new AuthorizerValue(requester, allowAll) }).cost;
  };
  it.each([
    {
      name: "resource check allowed",
      expr: "authorizer.group('apps').resource('deployments').check('create').allowed()",
      strict: 350004,
      lenient: 5,
    },
    { name: "path check allowed", expr: "authorizer.path('/healthz').check('get').allowed()", strict: 350003, lenient: 4 },
    {
      name: "fieldSelector",
      expr: "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
      strict: 1821,
      lenient: 4,
    },
  ])("$name", ({ expr, strict, lenient: want }) => {
    expect(cost(env, expr)).toBe(strict);
    expect(cost(lenient, expr)).toBe(want);
  });

  it("allows three checks in one expression (the strict environment does not)", () => {
    const check = "authorizer.group('').resource('services').check('get').allowed()";
    expect(cost(lenient, `${check} && ${check} && ${check}`)).toBeLessThan(100);
  });
});
