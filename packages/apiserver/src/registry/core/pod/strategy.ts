/**
 * Pod REST strategy: the subset service networking needs (pod IPs, ready condition, node name).
 * Upstream's full PodSpec validation is out of scope; spec changes other than through the
 * status subresource are accepted as stored.
 */
import { setDefaultsPod, validateObjectMetaUpdate, validatePod, type Pod } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asPod = (o: KubeObject): Pod => o as unknown as Pod;
const metaUpdate = (o: KubeObject, old: KubeObject) => validateObjectMetaUpdate(asPod(o).metadata, asPod(old).metadata);

export const podStrategy: RESTStrategy = {
  group: "",
  kind: "Pod",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  defaults: (o) => {
    (o as { spec?: { containers?: unknown[] } }).spec ??= { containers: [] };
    setDefaultsPod(asPod(o));
  },
  prepareForCreate: (o) => {
    o["status"] = { phase: "Pending", qosClass: "BestEffort", ...(o["status"] ?? {}) };
    // Pods track metadata.generation since 1.33 (PrepareForCreate: Generation = 1).
    o.metadata.generation = 1;
  },
  prepareForUpdate: (o, old) => {
    if (old["status"] === undefined) delete o["status"];
    else o["status"] = structuredClone(old["status"]);
    bumpGeneration(o, old);
  },
  validate: (o) => validatePod(asPod(o)),
  validateUpdate: (o, old) => [...metaUpdate(o, old), ...validatePod(asPod(o))],
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
  subresources: { status: { prepareForUpdate: resetForStatus, validateUpdate: metaUpdate } },
};

const str = (v: unknown): string => (typeof v === "string" ? v : "");
