import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import { IngressSchema, type Ingress } from "./ingress-types.ts";
import { validateIngressCreate, validateIngressStatusUpdate, validateIngressUpdate } from "./ingress-validation.ts";

const backend = { service: { name: "default-backend", port: { number: 80 } } };
const ing = (spec: unknown, annotations?: Record<string, string>): Ingress =>
  IngressSchema.parse({ metadata: { name: "foo", namespace: "default", resourceVersion: "1", annotations }, spec });
const rule = (pathType: string | undefined, path: string, host = "foo.bar.com") => ({
  host,
  http: { paths: [{ path, ...(pathType === undefined ? {} : { pathType }), backend }] },
});
const msgs = (i: Ingress) => validateIngressCreate(i).map(fieldErrorString);

describe("validateIngressCreate (upstream TestValidateIngressCreate / TestValidateIngress)", () => {
  it("accepts a valid Ingress", () => {
    expect(msgs(ing({ defaultBackend: backend, rules: [rule("Exact", "/foo")] }))).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    [
      "no rules and no default backend",
      {},
      ["spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified"],
    ],
    [
      "empty rules and no default backend",
      { rules: [] },
      ["spec: Invalid value: []networking.IngressRule{}: either `defaultBackend` or `rules` must be specified"],
    ],
    [
      "missing pathType",
      { rules: [rule(undefined, "/foo")] },
      ["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"],
    ],
    [
      "unknown pathType",
      { rules: [rule("Foo", "/foo")] },
      ['spec.rules[0].http.paths[0].pathType: Unsupported value: "Foo": supported values: "Exact", "ImplementationSpecific", "Prefix"'],
    ],
    [
      "Exact relative path",
      { rules: [rule("Exact", "foo")] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "foo": must be an absolute path'],
    ],
    [
      "Prefix empty path",
      { rules: [rule("Prefix", "")] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "": must be an absolute path'],
    ],
    [
      "Exact with //",
      { rules: [rule("Exact", "/foo//bar")] },
      ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo//bar\": must not contain '//'"],
    ],
    [
      "Prefix with /./",
      { rules: [rule("Prefix", "/foo/./bar")] },
      ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/./bar\": must not contain '/./'"],
    ],
    [
      "Exact with /../",
      { rules: [rule("Exact", "/foo/../bar")] },
      ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/../bar\": must not contain '/../'"],
    ],
    [
      "Prefix with %2f",
      { rules: [rule("Prefix", "/foo%2fbar")] },
      ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo%2fbar\": must not contain '%2f'"],
    ],
    [
      "Exact ending with /..",
      { rules: [rule("Exact", "/foo/..")] },
      ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/..\": cannot end with '/..'"],
    ],
    [
      "Prefix ending with /.",
      { rules: [rule("Prefix", "/foo/.")] },
      ["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/.\": cannot end with '/.'"],
    ],
    ["ImplementationSpecific empty path is fine", { rules: [rule("ImplementationSpecific", "")] }, []],
    ["ImplementationSpecific with // is fine", { rules: [rule("ImplementationSpecific", "/foo//bar")] }, []],
    [
      "ImplementationSpecific relative path",
      { rules: [rule("ImplementationSpecific", "foo")] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "foo": must be an absolute path'],
    ],
    [
      "IP host",
      { rules: [rule("Exact", "/", "127.0.0.1")] },
      ['spec.rules[0].host: Invalid value: "127.0.0.1": must be a DNS name, not an IP address'],
    ],
    ["wildcard host", { rules: [rule("Exact", "/", "*.bar.com")] }, []],
    [
      "bad wildcard host",
      { rules: [rule("Exact", "/", "*.*.bar.com")] },
      [
        "spec.rules[0].host: Invalid value: \"*.*.bar.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ["http with no paths", { rules: [{ host: "foo.bar.com", http: { paths: [] } }] }, ["spec.rules[0].http.paths: Required value"]],
    ["rule without http", { rules: [{ host: "foo.bar.com" }] }, []],
    [
      "both resource and service backend",
      { defaultBackend: { ...backend, resource: { apiGroup: "example.com", kind: "foo", name: "bar" } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
    ],
    ["no backend", { defaultBackend: {} }, ['spec.defaultBackend: Invalid value: "": resource or service backend is required']],
    ["resource backend", { defaultBackend: { resource: { apiGroup: "example.com", kind: "foo", name: "bar" } } }, []],
    [
      "resource backend missing kind and name",
      { defaultBackend: { resource: { apiGroup: "example.com" } } },
      ["spec.defaultBackend.resource.kind: Required value", "spec.defaultBackend.resource.name: Required value"],
    ],
    [
      "service port name and number",
      { defaultBackend: { service: { name: "svc", port: { name: "http", number: 80 } } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number'],
    ],
    [
      "service without port",
      { defaultBackend: { service: { name: "svc" } } },
      ["spec.defaultBackend: Required value: port name or number is required"],
    ],
    [
      "service name not a DNS-1035 label",
      { defaultBackend: { service: { name: "1svc", port: { number: 80 } } } },
      [
        "spec.defaultBackend.service.name: Invalid value: \"1svc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      "service without name",
      { defaultBackend: { service: { name: "", port: { number: 80 } } } },
      ["spec.defaultBackend.service.name: Required value"],
    ],
    [
      "bad port number",
      { defaultBackend: { service: { name: "svc", port: { number: 65536 } } } },
      ["spec.defaultBackend.service.port.number: Invalid value: 65536: must be between 1 and 65535, inclusive"],
    ],
    [
      "tls wildcard host ok, bad host",
      { defaultBackend: backend, tls: [{ hosts: ["*.foo.com", "Foo.com"], secretName: "tls" }] },
      [expect.stringMatching(/^spec\.tls\[0\]\.hosts\[1\]: Invalid value: "Foo\.com": a lowercase RFC 1123 subdomain/)],
    ],
    [
      "tls bad secret name",
      { defaultBackend: backend, tls: [{ secretName: "Bad_Secret" }] },
      [expect.stringMatching(/^spec\.tls\[0\]\.secretName: Invalid value: "Bad_Secret": a lowercase RFC 1123 subdomain/)],
    ],
    [
      "bad ingressClassName",
      { defaultBackend: backend, ingressClassName: "Bad" },
      [expect.stringMatching(/^spec\.ingressClassName: Invalid value: "Bad": a lowercase RFC 1123 subdomain/)],
    ],
  ])("%s", (_name, spec, want) => {
    expect(msgs(ing(spec))).toEqual(want);
  });

  it.each<[string, string | undefined, string | undefined, string[]]>([
    ["class field only", undefined, "foo", []],
    ["annotation only", "foo", undefined, []],
    ["both, matching", "foo", "foo", []],
    [
      "both, different",
      "bar",
      "foo",
      ['annotations.kubernetes.io/ingress.class: Invalid value: "bar": must match `ingressClassName` when both are specified'],
    ],
  ])("class annotation and field: %s", (_name, annotation, field, want) => {
    const annotations = annotation === undefined ? undefined : { "kubernetes.io/ingress.class": annotation };
    expect(msgs(ing({ defaultBackend: backend, ingressClassName: field }, annotations))).toEqual(want);
  });
});

describe("validateIngressUpdate (upstream TestValidateIngressUpdate)", () => {
  it("does not compare the class annotation and field on update", () => {
    const old = ing({ defaultBackend: backend, ingressClassName: "foo" });
    const upd = ing({ defaultBackend: backend, ingressClassName: "foo" }, { "kubernetes.io/ingress.class": "bar" });
    expect(validateIngressUpdate(upd, old)).toEqual([]);
  });

  it("keeps an invalid secret name already stored, and rejects a new one", () => {
    const old = ing({ defaultBackend: backend, tls: [{ secretName: "Bad_Secret" }] });
    const upd = ing({ defaultBackend: backend, tls: [{ secretName: "Other_Bad" }] });
    expect(validateIngressUpdate(upd, old)).toEqual([]);
    expect(validateIngressUpdate(upd, ing({ defaultBackend: backend })).length).toBe(1);
  });

  it("keeps an invalid wildcard-host rule already stored", () => {
    const old = ing({ rules: [rule("Exact", "foo", "*.bar.com")] });
    const upd = ing({ rules: [rule("Exact", "bar", "*.bar.com")] });
    expect(validateIngressUpdate(upd, old)).toEqual([]);
    expect(validateIngressUpdate(upd, ing({ defaultBackend: backend })).length).toBe(1);
  });
});

describe("validateIngressStatusUpdate (upstream TestValidateIngressStatusUpdate)", () => {
  const withStatus = (lb: unknown[]) =>
    IngressSchema.parse({ ...ing({ defaultBackend: backend }), status: { loadBalancer: { ingress: lb } } });
  it.each<[string, unknown[], string[]]>([
    ["valid", [{ ip: "127.0.0.1", hostname: "foo.com" }], []],
    [
      "bad ip",
      [{ ip: "abcd" }],
      ['status.loadBalancer.ingress[0].ip: Invalid value: "abcd": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ],
    [
      "ip as hostname",
      [{ hostname: "127.0.0.1" }],
      ['status.loadBalancer.ingress[0].hostname: Invalid value: "127.0.0.1": must be a DNS name, not an IP address'],
    ],
    [
      "bad hostname",
      [{ hostname: "Foo_" }],
      [expect.stringMatching(/^status\.loadBalancer\.ingress\[0\]\.hostname: Invalid value: "Foo_": a lowercase RFC 1123/)],
    ],
  ])("%s", (_name, lb, want) => {
    const old = ing({ defaultBackend: backend });
    expect(validateIngressStatusUpdate(withStatus(lb), old).map(fieldErrorString)).toEqual(want);
  });
});
