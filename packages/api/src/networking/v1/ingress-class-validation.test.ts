import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import { setDefaultsIngressClass } from "./defaults.ts";
import { IngressClassSchema, type IngressClass } from "./ingress-types.ts";
import { validateIngressClass, validateIngressClassUpdate } from "./ingress-class-validation.ts";

const ic = (spec: unknown, name = "test123"): IngressClass => IngressClassSchema.parse({ metadata: { name, resourceVersion: "1" }, spec });
const msgs = (c: IngressClass) => validateIngressClass(c).map(fieldErrorString);
const params = (p: Record<string, unknown>) => ({
  controller: "foo.co/bar",
  parameters: { apiGroup: "example.com", kind: "foo", name: "bar", ...p },
});

describe("validateIngressClass (upstream TestValidateIngressClass)", () => {
  it.each<[string, unknown, string[]]>([
    ["valid name, valid controller", { controller: "foo.co/bar" }, []],
    ["valid name, empty controller", { controller: "" }, ["spec.controller: Required value"]],
    ["valid name, controller max length", { controller: `foo.co/${"a".repeat(243)}` }, []],
    [
      "valid name, controller too long",
      { controller: `foo.co/${"a".repeat(244)}` },
      ["spec.controller: Too long: may not be more than 250 bytes"],
    ],
    [
      "valid name, bad controller",
      { controller: "foo" },
      ['spec.controller: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")'],
    ],
    [
      "bad controller path",
      { controller: "foo.co/b ar" },
      ["spec.controller: Invalid value: \"b ar\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"],
    ],
    ["valid name, valid controller, valid params", params({ scope: "Cluster" }), []],
    ["valid namespace-scoped params", params({ scope: "Namespace", namespace: "foo-ns" }), []],
    ["missing scope", params({}), ["spec.parameters.scope: Required value"]],
    [
      "unknown scope",
      params({ scope: "bad-scope" }),
      ['spec.parameters.scope: Unsupported value: "bad-scope": supported values: "Cluster", "Namespace"'],
    ],
    [
      "namespace scope without namespace",
      params({ scope: "Namespace" }),
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
    [
      "cluster scope with namespace",
      params({ scope: "Cluster", namespace: "foo-ns" }),
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
    [
      "bad namespace",
      params({ scope: "Namespace", namespace: "foo_ns" }),
      [expect.stringMatching(/^spec\.parameters\.namespace: Invalid value: "foo_ns": a lowercase RFC 1123 label/)],
    ],
    [
      "bad kind and apiGroup",
      params({ scope: "Cluster", kind: "foo/", apiGroup: "no~" }),
      [
        expect.stringMatching(/^spec\.parameters\.apiGroup: Invalid value: "no~"/),
        "spec.parameters.kind: Invalid value: \"foo/\": may not contain '/'",
      ],
    ],
    [
      "missing kind and name",
      { controller: "foo.co/bar", parameters: { scope: "Cluster" } },
      ["spec.parameters.kind: Required value", "spec.parameters.name: Required value"],
    ],
  ])("%s", (_name, spec, want) => {
    expect(msgs(ic(spec))).toEqual(want);
  });

  it("rejects a name that is not a DNS-1123 subdomain", () => {
    expect(msgs(ic({ controller: "foo.co/bar" }, "test*123"))[0]).toMatch(
      /^metadata\.name: Invalid value: "test\*123": a lowercase RFC 1123 subdomain/,
    );
  });
});

describe("validateIngressClassUpdate (upstream TestValidateIngressClassUpdate)", () => {
  it("allows parameters to change", () => {
    const old = ic({ controller: "foo.co/bar" });
    expect(validateIngressClassUpdate(ic(params({ scope: "Cluster" })), old)).toEqual([]);
  });
  it("rejects a controller change", () => {
    const old = ic({ controller: "foo.co/bar" });
    expect(validateIngressClassUpdate(ic({ controller: "foo.co/bar2" }), old).map(fieldErrorString)).toEqual([
      'spec.controller: Invalid value: "foo.co/bar2": field is immutable',
    ]);
  });
});

describe("SetDefaults_IngressClass (TestSetDefaultsIngressClass)", () => {
  it("defaults the parameters' scope to Cluster, and leaves no parameters alone", () => {
    const c = ic({ controller: "foo.co/bar", parameters: { kind: "k", name: "n" } });
    setDefaultsIngressClass(c);
    expect(c.spec.parameters?.scope).toBe("Cluster");
    const none = ic({ controller: "foo.co/bar" });
    setDefaultsIngressClass(none);
    expect(none.spec.parameters).toBeUndefined();
  });
});
