/**
 * plugin/pkg/admission/network/defaultingressclass/admission_test.go TestAdmission, over a fake
 * lister: no default, one default, two defaults (the newer wins; the same time: the lower name),
 * a class already set by field or annotation, and what the plugin leaves alone.
 */
import { describe, expect, it } from "vitest";
import type { IngressClass } from "@servicenet/api";
import type { Attributes } from "../../../../../admission/attributes.ts";
import { DefaultIngressClassPlugin } from "./admission.ts";

const t0 = "2025-01-01T00:00:00Z";
const t1 = "2025-01-01T00:00:01Z";
const cls = (name: string, isDefault: string | undefined, creationTimestamp = t0): IngressClass => ({
  metadata: {
    name,
    creationTimestamp,
    ...(isDefault === undefined ? {} : { annotations: { "ingressclass.kubernetes.io/is-default-class": isDefault } }),
  },
  spec: { controller: "example.com/controller" },
});
const defaultClass1 = cls("default1", "true");
const defaultClass2 = cls("default2", "true");
const defaultClassWithNewerTimestamp = cls("default3", "true", t1);
const classWithFalseDefault = cls("nondefault1", "false");
const classWithNoDefault = cls("nondefault2", undefined);
const classWithEmptyDefault = cls("nondefault3", "");

function plugin(classes: IngressClass[]): DefaultIngressClassPlugin {
  const byName = new Map(classes.map((c) => [c.metadata.name ?? "", c]));
  return new DefaultIngressClassPlugin({ ingressClasses: { get: (k) => byName.get(k), list: () => classes, hasSynced: () => true } });
}

function attrs(spec: Record<string, unknown>, annotations?: Record<string, string>, extra: Partial<Attributes> = {}): Attributes {
  return {
    operation: "CREATE",
    name: "testing",
    namespace: "default",
    resource: { group: "networking.k8s.io", version: "v1", resource: "ingresses" },
    subresource: "",
    kind: { group: "networking.k8s.io", version: "v1", kind: "Ingress" },
    object: { metadata: { name: "testing", namespace: "default", ...(annotations ? { annotations } : {}) }, spec },
    dryRun: false,
    userInfo: { username: "u" },
    ...extra,
  };
}

const classOf = (a: Attributes) => (a.object as unknown as { spec: { ingressClassName?: string } }).spec.ingressClassName;

describe("DefaultIngressClass (admission_test.go TestAdmission)", () => {
  const others = [classWithFalseDefault, classWithNoDefault, classWithEmptyDefault];
  it.each<[string, IngressClass[], string | undefined, string | undefined, string | undefined]>([
    ["no default, no modification of Ingress", others, undefined, undefined, undefined],
    ["one default, modify Ingress with class=nil", [defaultClass1, ...others], undefined, undefined, "default1"],
    ["one default, no modification of Ingress with class field=''", [defaultClass1, ...others], "", undefined, ""],
    ["one default, no modification of Ingress with class field='foo'", [defaultClass1, ...others], "foo", undefined, "foo"],
    ["one default, no modification of Ingress with class annotation='foo'", [defaultClass1, ...others], undefined, "foo", undefined],
    [
      "two defaults with the same creation timestamp, choose the one with the lower name",
      [defaultClass1, defaultClass2, ...others],
      undefined,
      undefined,
      "default1",
    ],
    ["two defaults, no modification with Ingress with class field=''", [defaultClass1, defaultClass2, ...others], "", undefined, ""],
    [
      "two defaults, choose the one with the newer creation timestamp",
      [defaultClass1, defaultClassWithNewerTimestamp, ...others],
      undefined,
      undefined,
      "default3",
    ],
  ])("%s", async (_name, classes, classField, classAnnotation, want) => {
    const a = attrs(
      classField === undefined ? {} : { ingressClassName: classField },
      classAnnotation === undefined ? undefined : { "kubernetes.io/ingress.class": classAnnotation },
    );
    await plugin(classes).admit(a);
    expect(classOf(a)).toBe(want);
  });

  it("acts on CREATE only, and not on subresources or other resources", async () => {
    const p = plugin([defaultClass1]);
    expect(p.handles("UPDATE")).toBe(false);
    const status = attrs({}, undefined, { subresource: "status" });
    await p.admit(status);
    expect(classOf(status)).toBeUndefined();
    const other = attrs({}, undefined, { resource: { group: "extensions", version: "v1beta1", resource: "ingresses" } });
    await p.admit(other);
    expect(classOf(other)).toBeUndefined();
  });
});
