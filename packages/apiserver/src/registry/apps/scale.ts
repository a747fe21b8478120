/**
 * The `scale` subresource of Deployments and ReplicaSets (pkg/registry/apps/deployment/storage/
 * storage.go and replicaset/storage/storage.go: scaleFromDeployment, scaleUpdatedObjectInfo).
 */
import { labelSelectorString, StatusError, validateScale, ScaleSchema, type LabelSelector, type Scale } from "@servicenet/api";
import type { SubresourceView } from "../rest/subresource-view.ts";

interface Scalable {
  spec?: { replicas?: number; selector?: LabelSelector };
  status?: { replicas?: number };
}

/** The Scale's metadata: the scaled object's identity and version (scaleFromDeployment and the CR scale's). */
export function scaleObjectMeta(m: Scale["metadata"]): Scale["metadata"] {
  return { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
}

/** The scale view of one apps resource (`deployments`, `replicasets`). */
export function scaleView(resource: string): SubresourceView {
  return {
    group: "autoscaling",
    version: "v1",
    kind: "Scale",
    schema: ScaleSchema,
    toView: (parent) => {
      const p = parent as unknown as Scalable;
      const m = parent.metadata;
      return {
        metadata: scaleObjectMeta(m),
        spec: { replicas: p.spec?.replicas ?? 0 },
        status: { replicas: p.status?.replicas ?? 0, selector: labelSelectorString(p.spec?.selector) },
      };
    },
    validate: (view) => validateScale(view as unknown as Scale),
    // replicasPathInDeployment / replicasPathInReplicaSet.
    replicasPaths: new Map([["apps/v1", ["spec", "replicas"]]]),
    apply: (parent, view) => {
      const scale = view as unknown as Scale;
      // A uid precondition is checked here; the resourceVersion one by the storage's compare-and-swap.
      if ((scale.metadata.uid ?? "") !== "" && scale.metadata.uid !== parent.metadata.uid)
        throw StatusError.conflict(
          { group: "apps", resource: `${resource}/scale` },
          parent.metadata.name ?? "",
          `Precondition failed: UID in precondition: ${scale.metadata.uid}, UID in object meta: ${parent.metadata.uid ?? ""}`,
        );
      const out = structuredClone(parent);
      ((out["spec"] ??= {}) as Record<string, unknown>)["replicas"] = scale.spec.replicas ?? 0;
      // deployment.ResourceVersion = scale.ResourceVersion: none means an unconditional update.
      if ((scale.metadata.resourceVersion ?? "") !== "") out.metadata.resourceVersion = scale.metadata.resourceVersion;
      else delete out.metadata.resourceVersion;
      return out;
    },
  };
}
