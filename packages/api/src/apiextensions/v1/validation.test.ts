/** Upstream pkg/apis/apiextensions/validation/validation_test.go: TestValidateCustomResourceDefinition (a subset). */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { setDefaultsCustomResourceDefinition } from "./defaults.ts";
import type { CustomResourceDefinition } from "./types.ts";
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from "./validation.ts";

const schema = { type: "object", properties: { spec: { type: "object", properties: { replicas: { type: "integer" } } } } };

function crd(mut: (c: CustomResourceDefinition) => void = () => {}): CustomResourceDefinition {
  const c: CustomResourceDefinition = {
    metadata: { name: "plural.group.com", resourceVersion: "1" },
    spec: {
      group: "group.com",
      scope: "Namespaced",
      names: { plural: "plural", kind: "Plural" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: structuredClone(schema) } }],
    },
  };
  mut(c);
  setDefaultsCustomResourceDefinition(c);
  return c;
}

const messages = (c: CustomResourceDefinition): string[] => validateCustomResourceDefinition(c).map(fieldErrorString);

describe("TestValidateCustomResourceDefinition", () => {
  it.each<[string, (c: CustomResourceDefinition) => void, string[]]>([
    ["a valid CRD", () => {}, []],
    [
      "wrong name",
      (c) => (c.metadata.name = "other.group.com"),
      ['metadata.name: Invalid value: "other.group.com": must be spec.names.plural+"."+spec.group'],
    ],
    [
      "group without a dot",
      (c) => {
        c.spec.group = "group";
        c.metadata.name = "plural.group";
      },
      ['spec.group: Invalid value: "group": should be a domain with at least one dot'],
    ],
    ["missing scope", (c) => (c.spec.scope = ""), ["spec.scope: Required value"]],
    ["bad scope", (c) => (c.spec.scope = "Global"), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']],
    [
      "kind equal to listKind",
      (c) => (c.spec.names.listKind = "Plural"),
      ['spec.names.listKind: Invalid value: "Plural": kind and listKind may not be the same'],
    ],
    [
      "a bad short name",
      (c) => (c.spec.names.shortNames = ["Pl"]),
      [
        "spec.names.shortNames[0]: Invalid value: \"Pl\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      "no schema",
      (c) => delete c.spec.versions[0]!.schema,
      ["spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"],
    ],
    [
      "a root that is no object",
      (c) => (c.spec.versions[0]!.schema = { openAPIV3Schema: { type: "string" } }),
      ['spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root'],
    ],
    [
      "a property without a type",
      (c) => (c.spec.versions[0]!.schema = { openAPIV3Schema: { type: "object", properties: { spec: {} } } }),
      ["spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields"],
    ],
    [
      "properties and additionalProperties",
      (c) =>
        (c.spec.versions[0]!.schema = {
          openAPIV3Schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } },
        }),
      [
        "spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root",
        "spec.validation.openAPIV3Schema.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
      ],
    ],
    [
      "additionalProperties false at the root",
      (c) => (c.spec.versions[0]!.schema = { openAPIV3Schema: { type: "object", additionalProperties: false } }),
      ["spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root"],
    ],
    [
      "additionalProperties on an embedded resource",
      (c) =>
        (c.spec.versions[0]!.schema = {
          openAPIV3Schema: {
            type: "object",
            properties: {
              e: { type: "object", "x-kubernetes-embedded-resource": true, additionalProperties: { type: "string" } },
            },
          },
        }),
      [
        "spec.validation.openAPIV3Schema.properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set",
      ],
    ],
    [
      "a scale path whose field name has brackets (upstream's TestApplyScaleSubresource)",
      (c) =>
        (c.spec.versions[0]!.subresources = { scale: { specReplicasPath: ".spec.replicas[0]", statusReplicasPath: ".status.replicas" } }),
      [],
    ],
    [
      "scale paths that are no simple json paths, or under the wrong root",
      (c) =>
        (c.spec.versions[0]!.subresources = {
          scale: { specReplicasPath: "foo,bar", statusReplicasPath: ".spec.replicas", labelSelectorPath: ".metadata.labels" },
        }),
      [
        'spec.subresources.scale.specReplicasPath: Invalid value: "foo,bar": must be a simple json path starting with .',
        'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      ],
    ],
    [
      "webhook conversion without a webhook",
      (c) => (c.spec.conversion = { strategy: "Webhook" }),
      [
        "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
        "spec.conversion.conversionReviewVersions: Required value",
      ],
    ],
    [
      "webhook conversion with both url and service",
      (c) =>
        (c.spec.conversion = {
          strategy: "Webhook",
          webhook: {
            clientConfig: { url: "https://example.com/c", service: { namespace: "ns", name: "n", port: 443 } },
            conversionReviewVersions: ["v1"],
          },
        }),
      ["spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"],
    ],
    [
      "webhook conversion over http",
      (c) =>
        (c.spec.conversion = {
          strategy: "Webhook",
          webhook: { clientConfig: { url: "http://example.com/c" }, conversionReviewVersions: ["v1"] },
        }),
      [
        "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      ],
    ],
    [
      "webhook conversion to a service on port 0",
      (c) =>
        (c.spec.conversion = {
          strategy: "Webhook",
          webhook: { clientConfig: { service: { namespace: "ns", name: "n", port: 0 } }, conversionReviewVersions: ["v1"] },
        }),
      ["spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"],
    ],
    [
      "conversion review versions none of which is accepted, one twice",
      (c) =>
        (c.spec.conversion = {
          strategy: "Webhook",
          webhook: { clientConfig: { url: "https://example.com/c" }, conversionReviewVersions: ["v2", "v2"] },
        }),
      [
        'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
        'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
      ],
    ],
    [
      "a caBundle that is not PEM",
      (c) =>
        (c.spec.conversion = {
          strategy: "Webhook",
          webhook: {
            clientConfig: { url: "https://example.com/c", caBundle: Buffer.from("ab").toString("base64") },
            conversionReviewVersions: ["v1"],
          },
        }),
      [
        "spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0x61, 0x62}: data does not contain any valid RSA or ECDSA certificates",
      ],
    ],
    [
      "a webhook set for strategy None",
      (c) =>
        (c.spec.conversion = {
          strategy: "None",
          webhook: { clientConfig: { url: "https://example.com/c" }, conversionReviewVersions: ["v1"] },
        }),
      [
        "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
        "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook",
      ],
    ],
    [
      "an array without items",
      (c) => (c.spec.versions[0]!.schema = { openAPIV3Schema: { type: "object", properties: { a: { type: "array" } } } }),
      ["spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified"],
    ],
  ])("%s", (_name, mut, want) => {
    expect(messages(crd(mut))).toEqual(want);
  });

  // The v1 to internal conversion moves a schema all versions share to spec.validation (conversion.go).
  it("reports a schema all versions share once, at spec.validation", () => {
    const bad = { type: "object", properties: { spec: {} } };
    const c = crd((c) => {
      c.spec.versions[0]!.schema = { openAPIV3Schema: structuredClone(bad) };
      c.spec.versions.push({ name: "v2", served: true, storage: false, schema: { openAPIV3Schema: structuredClone(bad) } });
    });
    expect(messages(c)).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
    ]);
  });

  it("reports per-version schemas at spec.versions[i].schema", () => {
    const c = crd((c) =>
      c.spec.versions.push({
        name: "v2",
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: "object", properties: { a: { type: "array" } } } },
      }),
    );
    expect(messages(c)).toEqual(["spec.versions[1].schema.openAPIV3Schema.properties[a].items: Required value: must be specified"]);
  });

  it("reports shared printer columns at spec.additionalPrinterColumns and per-version ones at the version", () => {
    const column = { name: "", type: "string", jsonPath: ".spec.a" };
    const shared = crd((c) => {
      c.spec.versions[0]!.additionalPrinterColumns = [column];
      c.spec.versions.push({
        name: "v2",
        served: true,
        storage: false,
        schema: { openAPIV3Schema: schema },
        additionalPrinterColumns: [column],
      });
    });
    expect(messages(shared)).toEqual(["spec.additionalPrinterColumns[0].name: Required value"]);
    const own = crd((c) => {
      c.spec.versions.push({
        name: "v2",
        served: true,
        storage: false,
        schema: { openAPIV3Schema: schema },
        additionalPrinterColumns: [column],
      });
    });
    expect(messages(own)).toEqual(["spec.versions[1].additionalPrinterColumns[0].name: Required value"]);
  });

  it("two storage versions", () => {
    const c = crd((c) => c.spec.versions.push({ name: "v2", served: true, storage: true, schema: { openAPIV3Schema: schema } }));
    expect(messages(c)).toHaveLength(2);
    expect(messages(c)[1]).toMatch(
      /^status\.storedVersions: Invalid value: apiextensions\.CustomResourceDefinitionVersion\{Name:"v2".*: must have the storage version v2$/,
    );
    expect(messages(c)[0]).toMatch(
      /^spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/,
    );
  });

  it("defaults singular, listKind, conversion and storedVersions", () => {
    const c = crd();
    expect(c.spec.names).toEqual({ plural: "plural", kind: "Plural", singular: "plural", listKind: "PluralList" });
    expect(c.spec.conversion).toEqual({ strategy: "None" });
    expect(c.status?.storedVersions).toEqual(["v1"]);
  });
});

describe("TestValidateCustomResourceDefinitionUpdate", () => {
  it("group and plural are immutable; scope only once established", () => {
    const old = crd();
    const next = crd((c) => (c.spec.scope = "Cluster"));
    expect(validateCustomResourceDefinitionUpdate(next, old).map(fieldErrorString)).toEqual([]);
    old.status!.conditions = [{ type: "Established", status: "True" }];
    expect(validateCustomResourceDefinitionUpdate(next, old).map(fieldErrorString)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
    ]);
  });

  // validation.go allowInvalidCABundle and requireRecognizedConversionReviewVersion.
  const webhook = (caBundle: string, conversionReviewVersions: string[]) => (c: CustomResourceDefinition) =>
    (c.spec.conversion = {
      strategy: "Webhook",
      webhook: { clientConfig: { url: "https://example.com/c", caBundle }, conversionReviewVersions },
    });
  const bad = Buffer.from("ab").toString("base64");
  const badCA =
    "spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0x61, 0x62}: data does not contain any valid RSA or ECDSA certificates";
  const update = (next: CustomResourceDefinition, old: CustomResourceDefinition) =>
    validateCustomResourceDefinitionUpdate(next, old).map(fieldErrorString);

  it("an invalid caBundle is kept by an update once it was invalid, or while the CRD is not established", () => {
    const next = crd(webhook(bad, ["v1"]));
    expect(update(next, crd(webhook(bad, ["v1"])))).toEqual([]);
    const established = (c: CustomResourceDefinition) => (c.status!.conditions = [{ type: "Established", status: "True" }]);
    const oldBad = crd(webhook(bad, ["v1"]));
    established(oldBad);
    expect(update(next, oldBad)).toEqual([]);
    const oldNone = crd();
    established(oldNone);
    expect(update(next, oldNone)).toEqual([badCA]);
  });

  it("unrecognized conversionReviewVersions are kept by an update only if the old CRD had none either", () => {
    const next = crd(webhook("", ["v2"]));
    expect(update(next, crd(webhook("", ["v3"])))).toEqual([]);
    expect(update(next, crd(webhook("", ["v1"])))).toEqual([
      'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
    ]);
  });
});

describe("validateAPIApproval", () => {
  const kube = (annotation: string | undefined) =>
    crd((c) => {
      c.spec.group = "sigs.k8s.io";
      c.metadata.name = "plural.sigs.k8s.io";
      if (annotation !== undefined) c.metadata.annotations = { "api-approved.kubernetes.io": annotation };
    });
  const see = "see https://github.com/kubernetes/enhancements/pull/1111";

  it.each<[string, string | undefined, string[]]>([
    ["approved", "https://github.com/kubernetes/kubernetes/pull/79724", []],
    ["unapproved", "unapproved, experimental-only", []],
    [
      "missing",
      undefined,
      [
        `metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", ${see}`,
      ],
    ],
    [
      "invalid",
      "Unapproved",
      [
        `metadata.annotations[api-approved.kubernetes.io]: Invalid value: "Unapproved": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", ${see}`,
      ],
    ],
  ])("create, %s", (_name, annotation, want) => {
    expect(messages(kube(annotation))).toEqual(want);
  });

  it("an update that keeps the approval state is not refused, one that breaks it is", () => {
    const old = kube(undefined);
    const same = kube(undefined);
    same.spec.versions[0]!.served = true;
    expect(validateCustomResourceDefinitionUpdate(same, old).map(fieldErrorString)).toEqual([]);
    const broken = kube("not a url");
    expect(validateCustomResourceDefinitionUpdate(broken, kube("https://k8s.io/1")).map(fieldErrorString)).toEqual([
      `metadata.annotations[api-approved.kubernetes.io]: Invalid value: "not a url": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", ${see}`,
    ]);
  });

  it("other groups need no annotation", () => {
    expect(messages(crd())).toEqual([]);
  });
});
