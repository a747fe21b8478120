/**
 * Event REST strategy (pkg/registry/core/event/strategy.go), with the involvedObject.* field
 * selectors `kubectl describe` uses to find an object's events.
 */
import { validateObjectMeta, validateObjectMetaUpdate, type ObjectMeta } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const involvedFields = ["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"] as const;

const meta = (o: KubeObject): ObjectMeta => o.metadata;

export const eventStrategy: RESTStrategy = {
  group: "",
  kind: "Event",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateObjectMeta(meta(o), { namespaced: true }),
  validateUpdate: (o, old) => validateObjectMetaUpdate(meta(o), meta(old)),
  selectableFieldNames: [...involvedFields.map((f) => `involvedObject.${f}`), "reason", "reportingComponent", "source", "type"],
  selectableFields: (o) => {
    const inv = (o["involvedObject"] ?? {}) as Record<string, unknown>;
    const source = (o["source"] ?? {}) as Record<string, unknown>;
    const out: Record<string, string> = {};
    for (const f of involvedFields) out[`involvedObject.${f}`] = str(inv[f]);
    out["reason"] = str(o["reason"]);
    out["reportingComponent"] = str(o["reportingComponent"]);
    out["source"] = str(source["component"] ?? o["reportingComponent"]);
    out["type"] = str(o["type"]);
    return out;
  },
};

const str = (v: unknown): string => (typeof v === "string" ? v : "");
