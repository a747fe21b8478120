/**
 * The Go structs behind the served kinds, as their types.go files declare them (k8s.io/api and
 * k8s.io/apimachinery's meta/v1, v1.33): field order and `json` tags, for writing JSON as
 * encoding/json does (go-order.ts). Tied to the zod schemas by go-structs.test.ts.
 */
import { admissionregistrationV1 } from "./admissionregistration-v1.ts";
import { appsV1, appsV1StatefulSet } from "./apps-v1.ts";
import { autoscalingV1 } from "./autoscaling-v1.ts";
import { batchV1 } from "./batch-v1.ts";
import { coordinationV1 } from "./coordination-v1.ts";
import { coreV1 } from "./core-v1.ts";
import { discoveryV1 } from "./discovery-v1.ts";
import { flowcontrolV1 } from "./flowcontrol-v1.ts";
import { metaV1 } from "./meta-v1.ts";
import { networkingV1 } from "./networking-v1.ts";
import { networkingV1alpha1 } from "./networking-v1alpha1.ts";
import { networkingV1beta1 } from "./networking-v1beta1.ts";
import { policyV1 } from "./policy-v1.ts";
import { rbacV1 } from "./rbac-v1.ts";
import { schedulingV1 } from "./scheduling-v1.ts";
import type { GoStructs } from "./types.ts";

const packages: Readonly<Record<string, GoStructs>> = {
  "admissionregistration/v1": admissionregistrationV1,
  "apps/v1": { ...appsV1, ...appsV1StatefulSet },
  "autoscaling/v1": autoscalingV1,
  "batch/v1": batchV1,
  "coordination/v1": coordinationV1,
  "core/v1": coreV1,
  "discovery/v1": discoveryV1,
  "flowcontrol/v1": flowcontrolV1,
  "meta/v1": metaV1,
  "networking/v1": networkingV1,
  "networking/v1alpha1": networkingV1alpha1,
  "networking/v1beta1": networkingV1beta1,
  "policy/v1": policyV1,
  "rbac/v1": rbacV1,
  "scheduling/v1": schedulingV1,
};

/** How encoding/json writes a value of one Go type: its zero value, and whether omitempty can drop it. */
export type GoKind = "string" | "int" | "bool" | "pointer" | "slice" | "map" | "struct" | "time" | "intOrString" | "quantity";

/** One field of a Go struct as encoding/json sees it. */
export interface GoField {
  kind: GoKind;
  omitempty: boolean;
  /** The package-qualified struct type of the value (through `*`, `[]` and map values), if it is one. */
  struct: string | undefined;
}

/** Types with a MarshalJSON of their own: metav1.Time writes `null` for its zero value. */
const special: Readonly<Record<string, GoKind>> = {
  "meta/v1.Time": "time",
  "meta/v1.MicroTime": "time",
  "intstr.IntOrString": "intOrString",
  "resource.Quantity": "quantity",
};

/** The package-qualified struct type named by `type` once `*`, `[]` and `map[K]` are taken off. */
function structOf(type: string): string | undefined {
  const base = type.replace(/^(\*|\[\]|map\[[^\]]+\])+/, "");
  return struct(base) === undefined ? undefined : base;
}

function kindOf(type: string): GoKind {
  if (type.startsWith("*")) return "pointer";
  if (type.startsWith("[]")) return "slice";
  if (type.startsWith("map[")) return "map";
  if (special[type] !== undefined) return special[type];
  if (type === "string") return "string";
  if (type === "bool") return "bool";
  if (/^u?int(8|16|32|64)?$|^float(32|64)$/.test(type)) return "int";
  return "struct";
}

/** Parses a field entry of the tables (`"[]core/v1.ServicePort,omitempty"`). */
export function parseGoField(spec: string): GoField {
  const [type = "", ...opts] = spec.split(",");
  return { kind: kindOf(type), omitempty: opts.includes("omitempty"), struct: structOf(type) };
}

/** The fields of the package-qualified struct `name` (`core/v1.ServiceSpec`), or undefined. */
export function struct(name: string): Readonly<Record<string, string>> | undefined {
  const dot = name.lastIndexOf(".");
  return packages[name.slice(0, dot)]?.[name.slice(dot + 1)];
}

/**
 * The Go package of a built-in API group: `core` for the legacy group, else the group's first
 * label; undefined for other groups (a custom resource's `apps.example.com` is not k8s.io/api's apps).
 */
function packageOf(group: string): string | undefined {
  if (group === "") return "core";
  return !group.includes(".") || group.endsWith(".k8s.io") ? group.split(".")[0] : undefined;
}

/** The Go struct of `kind` in `group`/`version` (`core/v1.Service`), or undefined when not tabled. */
export function goRootType(group: string, version: string, kind: string): string | undefined {
  const pkg = packageOf(group);
  if (pkg === undefined) return undefined;
  const name = `${pkg}/${version}.${kind}`;
  return struct(name) === undefined ? undefined : name;
}
