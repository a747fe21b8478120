/**
 * Pod REST strategy: the subset service networking needs (pod IPs, ready condition, node name).
 * Upstream's full PodSpec validation is out of scope; spec changes other than through the
 * status subresource are accepted as stored.
 */
import { setDefaultsPod, validateObjectMetaUpdate, validatePod, validatePodStatusUpdate, type Pod } from "@servicenet/api";
import type { GracefulDeleteOptions } from "../../rest/delete.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const metaUpdate = (o: Pod, old: Pod) => validateObjectMetaUpdate(o.metadata, old.metadata);

export const podStrategy: RESTStrategy<Pod> = {
  group: "",
  kind: "Pod",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  defaults: (o) => {
    // A body without a spec is defaulted as Go's zero PodSpec.
    (o as KubeObject)["spec"] ??= { containers: [] };
    setDefaultsPod(o);
    // Convert_v1_PodSpec_To_core_PodSpec: the deprecated serviceAccount is an alias; serviceAccountName wins.
    const spec = o.spec as Record<string, unknown>;
    if (!spec["serviceAccountName"] && spec["serviceAccount"]) spec["serviceAccountName"] = spec["serviceAccount"];
  },
  prepareForCreate: (o) => {
    o.status = { phase: "Pending", qosClass: "BestEffort", ...o.status };
    // Pods track metadata.generation since 1.33 (PrepareForCreate: Generation = 1).
    o.metadata.generation = 1;
  },
  prepareForUpdate: (o, old) => {
    if (old.status === undefined) delete o.status;
    else o.status = structuredClone(old.status);
    bumpGeneration(o, old);
  },
  // Convert_core_PodSpec_To_v1_PodSpec: v1 always carries the alias, after admission defaulted the name.
  canonicalize: (o) => {
    const spec = o.spec as Record<string, unknown>;
    if (spec["serviceAccountName"]) spec["serviceAccount"] = spec["serviceAccountName"];
    else delete spec["serviceAccount"];
  },
  validate: validatePod,
  validateUpdate: (o, old) => [...metaUpdate(o, old), ...validatePod(o)],
  selectableFieldNames: [
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
  ],
  selectableFields: (o) => {
    const spec = (o["spec"] ?? {}) as Record<string, unknown>;
    const status = (o["status"] ?? {}) as Record<string, unknown>;
    return {
      "spec.nodeName": str(spec["nodeName"]),
      "spec.restartPolicy": str(spec["restartPolicy"]),
      "spec.schedulerName": str(spec["schedulerName"]),
      "spec.serviceAccountName": str(spec["serviceAccountName"]),
      "spec.hostNetwork": String(spec["hostNetwork"] === true),
      "status.phase": str(status["phase"]),
      "status.podIP": str(status["podIP"]),
      "status.nominatedNodeName": str(status["nominatedNodeName"]),
    };
  },
  checkGracefulDelete: checkGracefulDeleteWithPodStatus,
  subresources: {
    status: { prepareForUpdate: resetForStatus, validateUpdate: validatePodStatusUpdate },
  },
};

/**
 * pkg/registry/core/pod/strategy.go `CheckGracefulDelete`: every Pod deletes gracefully, with the
 * request's gracePeriodSeconds, else the Pod's terminationGracePeriodSeconds (else 0); a Pod not
 * scheduled to a Node, or already Succeeded/Failed, goes at once (period 0); negative means 1.
 */
export function checkGracefulDeleteWithPodStatus(pod: Pod, options: GracefulDeleteOptions): boolean {
  let period = options.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 0;
  if ((pod.spec.nodeName ?? "") === "") period = 0;
  if (pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded") period = 0;
  if (period < 0) period = 1;
  options.gracePeriodSeconds = period;
  return true;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");
