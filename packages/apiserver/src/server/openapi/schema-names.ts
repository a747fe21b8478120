/**
 * Definition names for the zod schemas @servicenet/api exports: an export
 * `ServiceSpecSchema` of core/v1 is `io.k8s.api.core.v1.ServiceSpec`, as
 * kube-openapi names the Go type. Names are found by object identity, so a
 * schema reused in several places is one definition referenced by `$ref`.
 */
import * as appsv1 from "@servicenet/api/apps/v1";
import * as autoscalingv1 from "@servicenet/api/autoscaling/v1";
import * as batchv1 from "@servicenet/api/batch/v1";
import * as corev1 from "@servicenet/api/core/v1";
import * as discoveryv1 from "@servicenet/api/discovery/v1";
import * as metav1 from "@servicenet/api/meta/v1";
import * as networkingv1 from "@servicenet/api/networking/v1";
import * as networkingv1alpha1 from "@servicenet/api/networking/v1alpha1";
import * as networkingv1beta1 from "@servicenet/api/networking/v1beta1";
import * as rbacv1 from "@servicenet/api/rbac/v1";

/** Our export names where they differ from the Go type name. */
const renames: Readonly<Record<string, string>> = {
  EndpointSliceEndpoint: "Endpoint",
  EndpointSlicePort: "EndpointPort",
  EndpointSliceConditions: "EndpointConditions",
  EndpointSliceHints: "EndpointHints",
};

/** A module of schemas and the OpenAPI package prefix of its types. */
export interface SchemaModule {
  prefix: string;
  exports: Readonly<Record<string, unknown>>;
  renames?: Readonly<Record<string, string>>;
}

/** The modules of @servicenet/api, meta first so that shared meta types keep their meta names. */
export const apiSchemaModules: readonly SchemaModule[] = [
  { prefix: "io.k8s.apimachinery.pkg.apis.meta.v1", exports: metav1 },
  { prefix: "io.k8s.api.core.v1", exports: corev1 },
  { prefix: "io.k8s.api.discovery.v1", exports: discoveryv1, renames },
  { prefix: "io.k8s.api.networking.v1", exports: networkingv1 },
  { prefix: "io.k8s.api.networking.v1beta1", exports: networkingv1beta1 },
  { prefix: "io.k8s.api.networking.v1alpha1", exports: networkingv1alpha1 },
  { prefix: "io.k8s.api.rbac.v1", exports: rbacv1 },
  { prefix: "io.k8s.api.apps.v1", exports: appsv1 },
  { prefix: "io.k8s.api.autoscaling.v1", exports: autoscalingv1 },
  { prefix: "io.k8s.api.batch.v1", exports: batchv1 },
];

/** Builds the identity map from schema object to definition name. */
export function schemaNames(modules: readonly SchemaModule[] = apiSchemaModules): Map<object, string> {
  const out = new Map<object, string>();
  for (const m of modules) {
    for (const [exportName, value] of Object.entries(m.exports)) {
      if (!exportName.endsWith("Schema") || typeof value !== "object" || value === null || !("_zod" in value)) continue;
      if (out.has(value)) continue;
      const base = exportName.slice(0, -"Schema".length);
      out.set(value, `${m.prefix}.${m.renames?.[base] ?? base}`);
    }
  }
  return out;
}

/** The OpenAPI package prefix of a group/version when a root schema has no exported name. */
export function packagePrefix(group: string, version: string): string {
  const short = group === "" ? "core" : (group.split(".")[0] ?? group);
  return `io.k8s.api.${short}.${version}`;
}
