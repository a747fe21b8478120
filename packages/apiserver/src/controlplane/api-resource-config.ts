/**
 * What `--runtime-config` serves: kube-apiserver's DefaultAPIResourceConfigSource
 * (pkg/controlplane/instance.go: GA group versions on, beta and alpha ones off) over the group
 * versions this server can serve, merged with the flag (k8s.io/apiserver resourceconfig helpers).
 */
import { ResourceConfig, type GroupVersion } from "../server/resourceconfig/resource-config.ts";
import { parseConfigurationMap, resolveRuntimeConfig, type GroupVersionRegistry } from "../server/resourceconfig/helpers.ts";
import { servableResources, type ResourceDef } from "../server/resources.ts";
import { servableReviews, type ReviewDef } from "../server/reviews.ts";

/** The served resource and review tables. */
export interface ServedAPIs {
  resources: readonly ResourceDef[];
  reviews: readonly ReviewDef[];
}

const servable: readonly GroupVersion[] = [...servableResources, ...servableReviews];

/** The registry `--runtime-config` keys are checked against: every group version servicenet knows. */
export const servicenetRegistry: GroupVersionRegistry = {
  isGroupRegistered: (group) => servable.some((gv) => gv.group === group),
  isVersionRegistered: (gv) => servable.some((s) => s.group === gv.group && s.version === gv.version),
};

/** DefaultAPIResourceConfigSource: GA versions enabled, every beta and alpha version disabled. */
export function defaultAPIResourceConfig(): ResourceConfig {
  const config = new ResourceConfig();
  for (const gv of servable) config.setVersions(/^v\d+$/.test(gv.version), { group: gv.group, version: gv.version });
  return config;
}

/**
 * The resources and reviews a `--runtime-config` value (e.g. `networking.k8s.io/v1alpha1=true`,
 * `api/all=true`, `authentication.k8s.io/v1beta1/selfsubjectreviews=true`) serves; "" is the
 * default. Throws with kube-apiserver's message for a bad value.
 */
export function servedAPIs(runtimeConfig = ""): ServedAPIs {
  const config = resolveRuntimeConfig(defaultAPIResourceConfig(), parseConfigurationMap(runtimeConfig), servicenetRegistry);
  const enabled = (r: GroupVersion & { resource: string }): boolean => config.resourceEnabled(r, r.resource);
  const resources = servableResources.filter(enabled);
  // Nothing works without the core group's namespaces (bootstrap, admission); upstream's
  // `api/all=false` alone is refused for the same reason.
  if (!resources.some((r) => r.group === "" && r.resource === "namespaces"))
    throw new Error("--runtime-config: the core group v1 (namespaces) cannot be disabled");
  return { resources, reviews: servableReviews.filter(enabled) };
}
