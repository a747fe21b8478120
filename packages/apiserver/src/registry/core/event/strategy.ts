/**
 * Event REST strategy (pkg/registry/core/event/strategy.go), with the involvedObject.* field
 * selectors `kubectl describe` uses to find an object's events.
 */
import { validateObjectMeta, validateObjectMetaUpdate, type ObjectMeta } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const involvedFields = ["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"] as const;

const meta = (o: KubeObject): ObjectMeta => o.metadata;

/**
 * core/v1 Event's fields in Go struct order with what encoding/json writes for their zero
 * values: a zero metav1.Time or MicroTime is `null` (omitempty never omits a struct), the
 * involvedObject and source structs are `{}`, and reportingComponent/reportingInstance
 * (no omitempty) are "". Keys the client did not send appear as Go would serialise them.
 */
const goEventFields: readonly [string, () => unknown][] = [
  ["apiVersion", () => undefined],
  ["kind", () => undefined],
  ["metadata", () => undefined],
  ["involvedObject", () => ({})],
  ["reason", () => undefined],
  ["message", () => undefined],
  ["source", () => ({})],
  ["firstTimestamp", () => null],
  ["lastTimestamp", () => null],
  ["count", () => undefined],
  ["type", () => undefined],
  ["eventTime", () => null],
  ["series", () => undefined],
  ["action", () => undefined],
  ["related", () => undefined],
  ["reportingComponent", () => ""],
  ["reportingInstance", () => ""],
];

/** Rewrites `o` in place into Go's serialised shape of a core/v1 Event (see goEventFields). */
export function withGoEventShape(o: KubeObject): void {
  const rec = o as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...rec };
  for (const k of Object.keys(rec)) delete rec[k];
  for (const [k, zero] of goEventFields) {
    const v = copy[k] ?? zero();
    if (v !== undefined) rec[k] = v;
    delete copy[k];
  }
  Object.assign(rec, copy);
}

export const eventStrategy: RESTStrategy = {
  group: "",
  kind: "Event",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: withGoEventShape,
  prepareForUpdate: withGoEventShape,
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
