/**
 * conversion_test.go's multiVersionFixture CRD and its objects (newConversionMultiVersionFixture,
 * verifyMultiVersionObject): `stable.example.com`, v1beta1 stored; v1alpha1 with the same schema;
 * v1beta2 renames `num` and `content` to `numv2` and `contentv2`; each version defaults its own
 * field of `defaults`.
 */
import { expect } from "vitest";

export const group = "stable.example.com";
export const plural = "multiversion";
export const versions = ["v1beta1", "v1alpha1", "v1beta2"] as const;
export const storageVersion = "v1beta1";

export type Obj = Record<string, unknown> & {
  apiVersion?: string;
  metadata: { namespace?: string; name?: string; labels?: Record<string, string>; resourceVersion?: string; [k: string]: unknown };
};

/** A version of multiVersionFixture: `v1beta2` has contentv2 and numv2; `defaults[name]` defaults to true. */
function fixtureVersion(name: string): Record<string, unknown> {
  const suffix = name === "v1beta2" ? "v2" : "";
  const defaults = Object.fromEntries(versions.map((v) => [v, { type: "boolean", ...(v === name ? { default: true } : {}) }]));
  return {
    name,
    served: true,
    storage: name === storageVersion,
    subresources: { status: {}, scale: { specReplicasPath: ".spec.num.num1", statusReplicasPath: ".status.num.num2" } },
    schema: {
      openAPIV3Schema: {
        type: "object",
        properties: {
          [`content${suffix}`]: { type: "object", properties: { key: { type: "string" } } },
          [`num${suffix}`]: { type: "object", properties: { num1: { type: "integer" }, num2: { type: "integer" } } },
          defaults: { type: "object", properties: defaults },
        },
      },
    },
  };
}

/** multiVersionFixture converting through the webhook at `clientConfig`. */
export function multiVersionFixture(clientConfig: Record<string, unknown>, conversionReviewVersions: string[]): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural, singular: plural, kind: "MultiVersion", listKind: "MultiVersionList", shortNames: ["mv"], categories: ["all"] },
      versions: versions.map(fixtureVersion),
      conversion: { strategy: "Webhook", webhook: { clientConfig, conversionReviewVersions } },
    },
  };
}

/** newConversionMultiVersionFixture. */
export function newConversionMultiVersionFixture(ns: string, name: string, version: string): Obj {
  const suffix = version === "v1beta2" ? "v2" : "";
  return {
    apiVersion: `${group}/${version}`,
    kind: "MultiVersion",
    metadata: { namespace: ns, name },
    [`content${suffix}`]: { key: "value" },
    [`num${suffix}`]: { num1: 1, num2: 1000000 },
  };
}

/** verifyMultiVersionObject: the object is the fixture in version `v`, metadata aside. */
export function verifyMultiVersionObject(v: string, obj: Obj): void {
  const { metadata: _m, ...rest } = obj;
  const { metadata: _f, ...expected } = newConversionMultiVersionFixture("", "", v);
  expect(rest).toEqual(expected);
}
