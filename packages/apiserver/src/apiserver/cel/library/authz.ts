/**
 * The Kubernetes authz library (k8s.io/apiserver/pkg/cel/library/authz.go): the `authorizer`
 * variable of admission expressions asks the server's authorizer, for the requesting user, whether
 * a path or a resource may be acted on. `authorizer.path(p)` or
 * `authorizer.group(g).resource(r)[.subresource(s)][.namespace(n)][.name(x)]` build a check,
 * `.check(verb)` decides, and the Decision says `allowed()`, `reason()`, `errored()`, `error()`.
 * `authorizer.serviceAccount(ns, name)` asks for a service account instead of the user. The
 * AuthzSelectors library adds `.fieldSelector(s)` and `.labelSelector(s)` to a resource check.
 */
import { nameIsDNSLabel, nameIsDNSSubdomain } from "@servicenet/api/meta/v1";
import type { Environment } from "@marcbachmann/cel-js";
import type { UserInfo } from "../../../authentication/user/user.ts";
import type { AuthorizationResult, Decision, SynchronousAuthorize } from "../../../authorization/authorizer/interfaces.ts";
import { selectorAttributes } from "../../../authorization/authorizer/selectors.ts";
import { chargeCost, stringTraversalCostFactor, type Library } from "./library.ts";

// authz.go's type names (cel.ObjectType).
export const authorizerType = "kubernetes.authorization.Authorizer";
export const pathCheckType = "kubernetes.authorization.PathCheck";
export const groupCheckType = "kubernetes.authorization.GroupCheck";
export const resourceCheckType = "kubernetes.authorization.ResourceCheck";
export const decisionType = "kubernetes.authorization.Decision";

/**
 * library/cost.go: an authorization check costs a fixed 350000, so that at most two fit in one
 * expression's per-call limit; every builder and accessor costs 1 (the call's own step).
 */
export const authzCheckCost = 350_000;

/** What the server's feature gates say about the checks. */
export interface AuthzOptions {
  /**
   * AuthorizeWithSelectors (beta, on by default since 1.32): a check's field and label selectors
   * reach the authorizer; off, they are dropped (resourceCheckVal.Authorize).
   */
  authorizeWithSelectors?: boolean;
}

/** An `authorizer` value: who is asked about, and the authorizer that answers. */
export class AuthorizerValue {
  readonly user: UserInfo;
  readonly authorize: SynchronousAuthorize;
  readonly options: AuthzOptions;
  /**
   * `authorizer.requestResource` (admission/plugin/cel/compile.go RequestResourceAuthorizerVarName):
   * upstream declares it as a variable of its own; here it is the one field of the bound authorizer.
   */
  readonly requestResource: ResourceCheckValue | undefined;
  constructor(user: UserInfo, authorize: SynchronousAuthorize, requestResource?: ResourceFields, options: AuthzOptions = {}) {
    this.user = user;
    this.authorize = authorize;
    this.options = options;
    this.requestResource = requestResource && new ResourceCheckValue(this, requestResource);
  }
}

/** A check of a non-resource path. */
export class PathCheckValue {
  readonly authorizer: AuthorizerValue;
  readonly path: string;
  constructor(authorizer: AuthorizerValue, path: string) {
    this.authorizer = authorizer;
    this.path = path;
  }
}

/** A check in an API group, waiting for its resource. */
export class GroupCheckValue {
  readonly authorizer: AuthorizerValue;
  readonly group: string;
  constructor(authorizer: AuthorizerValue, group: string) {
    this.authorizer = authorizer;
    this.group = group;
  }
}

/** What a resource check asks about. */
export interface ResourceFields {
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** Set by `.fieldSelector()` and `.labelSelector()`; "" or unset is none. */
  fieldSelector?: string;
  labelSelector?: string;
}

/** A check of a resource; each builder returns a changed copy. */
export class ResourceCheckValue {
  readonly authorizer: AuthorizerValue;
  readonly fields: Readonly<ResourceFields>;
  constructor(authorizer: AuthorizerValue, fields: ResourceFields) {
    this.authorizer = authorizer;
    this.fields = fields;
  }
  with(change: Partial<ResourceFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.authorizer, { ...this.fields, ...change });
  }
}

/** An authorization decision. */
export class DecisionValue {
  readonly decision: Decision;
  readonly reason: string;
  readonly error: string | undefined;
  constructor(r: AuthorizationResult) {
    this.decision = r.decision;
    this.reason = r.reason;
    this.error = r.error;
  }
}

/** serviceaccount.ServiceAccountInfo.UserInfo: the user a service account authenticates as. */
function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    uid: "",
    groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`],
  };
}

function serviceAccount(a: AuthorizerValue, namespace: string, name: string): AuthorizerValue {
  // authorizerServiceAccount: ValidateServiceAccountName, then ValidateNamespaceName.
  if (nameIsDNSSubdomain(name, false).length > 0) throw new Error("Invalid service account name");
  if (nameIsDNSLabel(namespace, false).length > 0) throw new Error("Invalid service account namespace");
  return new AuthorizerValue(serviceAccountUser(namespace, name), a.authorize, undefined, a.options);
}

function path(a: AuthorizerValue, p: string): PathCheckValue {
  if (p.trim() === "") throw new Error("path must not be empty");
  return new PathCheckValue(a, p);
}

function resource(g: GroupCheckValue, r: string): ResourceCheckValue {
  if (r.trim() === "") throw new Error("resource must not be empty");
  return new ResourceCheckValue(g.authorizer, { group: g.group, resource: r, subresource: "", namespace: "", name: "" });
}

function pathCheck(c: PathCheckValue, verb: string): DecisionValue {
  chargeCost(authzCheckCost - 1);
  const a = c.authorizer;
  const base = { user: a.user, verb, path: c.path, resourceRequest: false };
  return new DecisionValue(a.authorize({ ...base, namespace: "", apiGroup: "", apiVersion: "", resource: "", subresource: "", name: "" }));
}

function resourceCheck(c: ResourceCheckValue, verb: string): DecisionValue {
  chargeCost(authzCheckCost - 1);
  const f = c.fields;
  const withSelectors = c.authorizer.options.authorizeWithSelectors ?? true;
  // resourceCheckVal.Authorize asks about every version of the resource.
  return new DecisionValue(
    c.authorizer.authorize({
      user: c.authorizer.user,
      verb,
      resourceRequest: true,
      apiGroup: f.group,
      apiVersion: "*",
      resource: f.resource,
      subresource: f.subresource,
      namespace: f.namespace,
      name: f.name,
      path: "",
      ...(withSelectors ? selectorAttributes(f.fieldSelector, f.labelSelector) : {}),
    }),
  );
}

/**
 * library/cost.go selectorCostEstimate for a selector of `length` characters: a list (10), the
 * string walked (a tenth per character) and up to one requirement per two characters, each a
 * struct and a values list (50).
 */
export function selectorCost(length: number): number {
  const listCreateBaseCost = 10;
  const structCreateBaseCost = 40;
  const requirements = Math.ceil(length * 0.5);
  return listCreateBaseCost + Math.ceil(length * stringTraversalCostFactor) + requirements * (listCreateBaseCost + structCreateBaseCost);
}

function withSelector(change: "fieldSelector" | "labelSelector"): (c: ResourceCheckValue, s: string) => ResourceCheckValue {
  return (c, s) => {
    // cel-go sizes a string by its code points; the call's own step is charged by the evaluator.
    chargeCost(selectorCost([...s].length) - 1);
    return c.with({ [change]: s });
  };
}

const A = authorizerType;
const P = pathCheckType;
const G = groupCheckType;
const R = resourceCheckType;
const D = decisionType;

/** The authz library. */
export const authz: Library = {
  name: "kubernetes.authz",
  register(env: Environment): void {
    env.registerType(R, { ctor: ResourceCheckValue, fields: {} });
    env.registerType(A, { ctor: AuthorizerValue, fields: { requestResource: R } });
    env.registerType(P, { ctor: PathCheckValue, fields: {} });
    env.registerType(G, { ctor: GroupCheckValue, fields: {} });
    env.registerType(D, { ctor: DecisionValue, fields: {} });
    env.registerFunction(`${A}.path(string): ${P}`, path);
    env.registerFunction(`${A}.group(string): ${G}`, (a: AuthorizerValue, g: string) => new GroupCheckValue(a, g));
    env.registerFunction(`${A}.serviceAccount(string, string): ${A}`, serviceAccount);
    env.registerFunction(`${G}.resource(string): ${R}`, resource);
    env.registerFunction(`${R}.subresource(string): ${R}`, (c: ResourceCheckValue, s: string) => c.with({ subresource: s }));
    env.registerFunction(`${R}.namespace(string): ${R}`, (c: ResourceCheckValue, n: string) => c.with({ namespace: n }));
    env.registerFunction(`${R}.name(string): ${R}`, (c: ResourceCheckValue, n: string) => c.with({ name: n }));
    env.registerFunction(`${P}.check(string): ${D}`, pathCheck);
    env.registerFunction(`${R}.check(string): ${D}`, resourceCheck);
    env.registerFunction(`${D}.allowed(): bool`, (d: DecisionValue) => d.decision === "Allow");
    env.registerFunction(`${D}.reason(): string`, (d: DecisionValue) => d.reason);
    env.registerFunction(`${D}.errored(): bool`, (d: DecisionValue) => d.error !== undefined);
    env.registerFunction(`${D}.error(): string`, (d: DecisionValue) => d.error ?? "");
  },
};

/**
 * The AuthzSelectors library (authz.go AuthzSelectors, "kubernetes.authzSelectors", 1.31+): a
 * selector that does not parse is not an evaluation error; the check goes to the authorizer with
 * the parse error instead of requirements.
 */
export const authzSelectors: Library = {
  name: "kubernetes.authzSelectors",
  register(env: Environment): void {
    env.registerFunction(`${R}.fieldSelector(string): ${R}`, withSelector("fieldSelector"));
    env.registerFunction(`${R}.labelSelector(string): ${R}`, withSelector("labelSelector"));
  },
};
