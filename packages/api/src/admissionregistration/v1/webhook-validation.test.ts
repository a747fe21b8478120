/**
 * Cases of pkg/apis/admissionregistration/validation/validation_test.go
 * (TestValidateValidatingWebhookConfiguration, TestValidateMutatingWebhookConfiguration and the
 * Update tests), on defaulted objects; and SetDefaults_ValidatingWebhook/MutatingWebhook.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import { setDefaultsMutatingWebhookConfiguration, setDefaultsValidatingWebhookConfiguration } from "./webhook-defaults.ts";
import type { MutatingWebhook, ValidatingWebhook, ValidatingWebhookConfiguration } from "./webhook-types.ts";
import {
  validateMutatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
} from "./webhook-validation.ts";
import type { ExpressionCompiler } from "./validation.ts";

const validClientConfig = { url: "https://example.com" };
const rule = (over: Record<string, unknown> = {}) => ({
  operations: ["CREATE"],
  apiGroups: ["a"],
  apiVersions: ["a"],
  resources: ["a"],
  ...over,
});

/** newValidatingWebhookConfiguration: admissionReviewVersions v1beta1 unless `defaultARV` is false. */
function config(hooks: Partial<ValidatingWebhook>[], defaultARV = true): ValidatingWebhookConfiguration {
  const c: ValidatingWebhookConfiguration = {
    metadata: { name: "config" },
    webhooks: hooks.map((h) => ({ name: "", clientConfig: {}, ...(defaultARV ? { admissionReviewVersions: ["v1beta1"] } : {}), ...h })),
  };
  setDefaultsValidatingWebhookConfiguration(c);
  return c;
}

const errorsOf = (c: ValidatingWebhookConfiguration, compile?: ExpressionCompiler) =>
  validateValidatingWebhookConfiguration(c, compile).map(fieldErrorString).join(", ");

const hook = { name: "webhook.k8s.io", clientConfig: validClientConfig, sideEffects: "None" };

describe("TestValidateValidatingWebhookConfiguration", () => {
  it.each([
    {
      name: "AdmissionReviewVersions are required",
      c: config([{ ...hook, sideEffects: "Unknown" }], false),
      err: "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
    },
    {
      name: "should fail on bad AdmissionReviewVersion value",
      c: config([{ ...hook, admissionReviewVersions: ["0v"] }]),
      err: 'Invalid value: "0v": a DNS-1035 label',
    },
    { name: "should pass on valid AdmissionReviewVersion", c: config([hook]), err: "" },
    {
      name: "should pass on mix of accepted and unaccepted AdmissionReviewVersion",
      c: config([{ ...hook, admissionReviewVersions: ["v1beta1", "invalid-version"] }]),
      err: "",
    },
    {
      name: "should fail on invalid AdmissionReviewVersion",
      c: config([{ ...hook, admissionReviewVersions: ["invalidVersion"] }]),
      err: 'webhooks[0].admissionReviewVersions: Invalid value: []string{"invalidVersion"}: must include at least one of v1, v1beta1',
    },
    {
      name: "should fail on duplicate AdmissionReviewVersion",
      c: config([{ ...hook, admissionReviewVersions: ["v1beta1", "v1beta1"] }]),
      err: 'Invalid value: "v1beta1": duplicate version',
    },
    {
      name: "all Webhooks must have a fully qualified name",
      c: config([hook, { ...hook, name: "k8s.io" }, { ...hook, name: "" }]),
      err: 'webhooks[1].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots, webhooks[2].name: Required value',
    },
    {
      name: "Webhooks must have unique names when created",
      c: config([hook, hook]),
      err: 'webhooks[1].name: Duplicate value: "webhook.k8s.io"',
    },
    {
      name: "Operations must not be empty or nil",
      c: config([{ ...hook, rules: [rule({ operations: [] }), rule({ operations: undefined })] }]),
      err: "webhooks[0].rules[0].operations: Required value, webhooks[0].rules[1].operations: Required value",
    },
    {
      name: '"" is NOT a valid operation',
      c: config([{ ...hook, rules: [rule({ operations: ["CREATE", ""] })] }]),
      err: 'Unsupported value: ""',
    },
    {
      name: "operation must be either create/update/delete/connect",
      c: config([{ ...hook, rules: [rule({ operations: ["PATCH"] })] }]),
      err: 'Unsupported value: "PATCH"',
    },
    {
      name: "wildcard operation cannot be mixed with other strings",
      c: config([{ ...hook, rules: [rule({ operations: ["CREATE", "*"] })] }]),
      err: "if '*' is present, must not specify other operations",
    },
    {
      name: 'resource "*" can co-exist with resources that have subresources',
      c: config([{ ...hook, rules: [rule({ resources: ["*", "a/b", "a/*", "*/b"] })] }]),
      err: "",
    },
    {
      name: "resource a/* cannot mix with a/x",
      c: config([{ ...hook, rules: [rule({ resources: ["a/*", "a/x"] })] }]),
      err: "webhooks[0].rules[0].resources[1]: Invalid value: \"a/x\": if 'a/*' is present, must not specify a/x",
    },
    {
      name: "resource */* cannot mix with other resources",
      c: config([{ ...hook, rules: [rule({ resources: ["*/*", "a"] })] }]),
      err: 'webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "a"}: if \'*/*\' is present, must not specify other resources',
    },
    {
      name: 'FailurePolicy can only be "Ignore" or "Fail"',
      c: config([{ ...hook, failurePolicy: "other" }]),
      err: 'webhooks[0].failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"',
    },
    {
      name: "SideEffects are required",
      c: config([{ ...hook, sideEffects: undefined }]),
      err: "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
    },
    {
      name: 'SideEffects can only be "None" or "NoneOnDryRun" when created',
      c: config([{ ...hook, sideEffects: "other" }]),
      err: 'webhooks[0].sideEffects: Unsupported value: "other": supported values: "None", "NoneOnDryRun"',
    },
    {
      name: "both service and URL missing",
      c: config([{ ...hook, clientConfig: {} }]),
      err: "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
    },
    {
      name: "both service and URL provided",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", port: 443 }, url: "example.com/k8s/webhook" } }]),
      err: "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
    },
    {
      name: "blank URL",
      c: config([{ ...hook, clientConfig: { url: "" } }]),
      err: 'webhooks[0].clientConfig.url: Invalid value: "": \'https\' is the only allowed URL scheme; desired format: https://host[/path], webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
    },
    {
      name: "wrong scheme",
      c: config([{ ...hook, clientConfig: { url: "http://example.com" } }]),
      err: "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
    },
    {
      name: "missing host",
      c: config([{ ...hook, clientConfig: { url: "https:///fancy/webhook" } }]),
      err: 'webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
    },
    {
      name: "fragment",
      c: config([{ ...hook, clientConfig: { url: "https://example.com/#bookmark" } }]),
      err: 'webhooks[0].clientConfig.url: Invalid value: "bookmark": fragments are not permitted in the URL',
    },
    {
      name: "query",
      c: config([{ ...hook, clientConfig: { url: "https://example.com?arg=value" } }]),
      err: 'webhooks[0].clientConfig.url: Invalid value: "arg=value": query parameters are not permitted in the URL',
    },
    {
      name: "user",
      c: config([{ ...hook, clientConfig: { url: "https://harry.potter@example.com/" } }]),
      err: 'webhooks[0].clientConfig.url: Invalid value: "harry.potter": user information is not permitted in the URL',
    },
    {
      name: "just totally wrong",
      c: config([{ ...hook, clientConfig: { url: "arg#backwards=thisis?html.index/port:host//:https" } }]),
      err: "host must be specified",
    },
    {
      name: "path must start with slash",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", path: "foo/", port: 443 } } }]),
      err: "webhooks[0].clientConfig.service.path: Invalid value: \"foo/\": must start with a '/'",
    },
    { name: "path accepts slash", c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", path: "/" } } }]), err: "" },
    {
      name: "path accepts no trailing slash",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", path: "/foo" } } }]),
      err: "",
    },
    {
      name: "path fails //",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", path: "//" } } }]),
      err: 'webhooks[0].clientConfig.service.path: Invalid value: "//": segment[0] may not be empty',
    },
    {
      name: "path no empty step",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", path: "/foo//bar/" } } }]),
      err: 'webhooks[0].clientConfig.service.path: Invalid value: "/foo//bar/": segment[1] may not be empty',
    },
    {
      name: "path no non-subdomain",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", path: "/apis/foo.bar/v1alpha1/--bad" } } }]),
      err: 'webhooks[0].clientConfig.service.path: Invalid value: "/apis/foo.bar/v1alpha1/--bad": segment[3]: a lowercase RFC 1123 subdomain',
    },
    {
      name: "invalid port 0",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", port: 0 } } }]),
      err: "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
    },
    {
      name: "invalid port >65535",
      c: config([{ ...hook, clientConfig: { service: { namespace: "ns", name: "n", port: 65536 } } }]),
      err: "webhooks[0].clientConfig.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive",
    },
    {
      name: "timeout seconds cannot be greater than 30",
      c: config([{ ...hook, timeoutSeconds: 31 }]),
      err: "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
    },
    {
      name: "timeout seconds cannot be smaller than 1",
      c: config([{ ...hook, timeoutSeconds: 0 }]),
      err: "webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds",
    },
    {
      name: "single match condition must have a name",
      c: config([{ ...hook, matchConditions: [{ name: "", expression: "true" }] }]),
      err: "webhooks[0].matchConditions[0].name: Required value",
    },
    {
      name: "match condition with parameters not allowed",
      c: config([{ ...hook, matchConditions: [{ name: "hasParams", expression: "params.foo" }] }]),
      err: "webhooks[0].matchConditions[0].expression: Invalid value: \"params.foo\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'",
    },
    {
      name: "match conditions must have unique names",
      c: config([
        {
          ...hook,
          matchConditions: [
            { name: "webhooks.k8s.io", expression: "true" },
            { name: "webhooks.k8s.io", expression: "true" },
          ],
        },
      ]),
      err: 'webhooks[0].matchConditions[1].name: Duplicate value: "webhooks.k8s.io"',
    },
  ])("$name", ({ c, err }) => {
    // A stand-in for the CEL compiler: only `params` is undeclared, as in the webhook environment.
    const compile: ExpressionCompiler = (e) =>
      e.startsWith("params")
        ? { type: "Invalid", detail: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'\n | params.foo\n | ^" }
        : undefined;
    const got = errorsOf(c, compile);
    if (err === "") expect(got).toBe("");
    else expect(got).toContain(err);
  });
});

describe("TestValidateValidatingWebhookConfigurationUpdate", () => {
  it("allows what is already stored: Unknown side effects, unrecognized review versions, duplicate names", () => {
    const old = config([
      { ...hook, sideEffects: "Unknown", admissionReviewVersions: ["invalid-v1"] },
      { ...hook, sideEffects: "Unknown" },
    ]);
    const updated = config([
      { ...hook, sideEffects: "Unknown", admissionReviewVersions: ["invalid-v1"], timeoutSeconds: 5 },
      { ...hook, sideEffects: "Unknown" },
    ]);
    expect(validateValidatingWebhookConfigurationUpdate(updated, old).map(fieldErrorString)).toEqual([]);
  });
  it("refuses Unknown side effects when none were stored", () => {
    const old = config([hook]);
    const updated = config([{ ...hook, sideEffects: "Unknown" }]);
    expect(validateValidatingWebhookConfigurationUpdate(updated, old).map(fieldErrorString)).toEqual([
      'webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
    ]);
  });
});

describe("TestValidateMutatingWebhookConfiguration", () => {
  it("refuses an unknown reinvocationPolicy", () => {
    const c = {
      metadata: { name: "config" },
      webhooks: [{ ...hook, admissionReviewVersions: ["v1"], reinvocationPolicy: "other" } as MutatingWebhook],
    };
    setDefaultsMutatingWebhookConfiguration(c);
    expect(validateMutatingWebhookConfiguration(c).map(fieldErrorString)).toEqual([
      'webhooks[0].reinvocationPolicy: Unsupported value: "other": supported values: "IfNeeded", "Never"',
    ]);
  });
});

describe("SetDefaults_ValidatingWebhook and SetDefaults_MutatingWebhook", () => {
  it("fills failurePolicy, matchPolicy, selectors, timeout, rule scope, service port and reinvocationPolicy", () => {
    const c = {
      metadata: { name: "c" },
      webhooks: [{ name: "a.b.c", clientConfig: { service: { namespace: "ns", name: "n" } }, rules: [rule()] } as MutatingWebhook],
    };
    setDefaultsMutatingWebhookConfiguration(c);
    expect(c.webhooks[0]).toEqual({
      name: "a.b.c",
      clientConfig: { service: { namespace: "ns", name: "n", port: 443 } },
      rules: [{ ...rule(), scope: "*" }],
      failurePolicy: "Fail",
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: "Never",
    });
  });
});
