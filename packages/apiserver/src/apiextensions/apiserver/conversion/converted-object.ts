/**
 * What a conversion webhook may change of an object's metadata (apiextensions-apiserver
 * pkg/apiserver/conversion/webhook_converter.go validateConvertedObject and restoreObjectMeta):
 * kind, name, namespace and uid must stay; everything else in metadata is put back from the
 * original, except labels and annotations, which the webhook may change when they stay valid.
 */
import { aggregateMessage, validateAnnotations, validateLabels } from "@servicenet/api";
import { deepCopy, type KubeObject } from "../../../storage/index.ts";

type JSONMap = Record<string, unknown>;

/** validateConvertedObject: the ObjectMeta fields other than labels and annotations must match. */
export function validateConvertedObject(original: KubeObject, converted: JSONMap): void {
  const meta = (o: JSONMap): JSONMap => (isMap(o["metadata"]) ? o["metadata"] : {});
  const om = meta(original);
  const cm = meta(converted);
  const checks: [string, unknown, unknown][] = [
    ["kind", original.kind ?? "", converted["kind"] ?? ""],
    ["name", om["name"] ?? "", cm["name"] ?? ""],
    ["namespace", om["namespace"] ?? "", cm["namespace"] ?? ""],
    ["UID", om["uid"] ?? "", cm["uid"] ?? ""],
  ];
  for (const [what, e, a] of checks) if (e !== a) throw new Error(`must have the same ${what}: ${String(e)} != ${String(a)}`);
}

/** restoreObjectMeta: metadata deep-copied from `original` into `converted`, keeping labels and annotations from `converted`. */
export function restoreObjectMeta(original: KubeObject, converted: JSONMap): void {
  const response = converted["metadata"];
  if (response === undefined) throw new Error("missing metadata in converted object");
  if (!isMap(response)) throw new Error(`invalid metadata of type ${goType(response)} in converted object`);
  const restored: unknown = original.metadata === undefined ? {} : deepCopy(original.metadata);
  converted["metadata"] = restored;
  if (!isMap(restored)) throw new Error(`invalid metadata of type ${goType(restored)} in input object`);
  for (const fld of ["labels", "annotations"] as const) {
    const got = response[fld];
    if (got === undefined || got === null) {
      delete restored[fld];
      continue;
    }
    if (!isMap(got)) throw new Error(`invalid metadata.${fld} of type ${goType(got)} in converted object`);
    const before = restored[fld];
    if (before !== undefined && before !== null && !isMap(before))
      throw new Error(`invalid metadata.${fld} of type ${goType(before)} in original object`);
    const old = before ?? {};
    let changed = Object.keys(old).length !== Object.keys(got).length;
    for (const [k, v] of Object.entries(got)) {
      if (typeof v !== "string") throw new Error(`metadata.${fld}[${k}] must be a string, but is ${goType(v)} in converted object`);
      if (old[k] !== v) changed = true;
    }
    if (changed) {
      // Every value was checked to be a string above. Upstream validates annotations at the path `metadata.annotation`.
      const strings = got as Record<string, string>;
      const errs = fld === "labels" ? validateLabels(strings, "metadata.labels") : validateAnnotations(strings, "metadata.annotation");
      if (errs.length > 0) throw new Error(aggregateMessage(errs));
    }
    restored[fld] = got;
  }
}

function isMap(v: unknown): v is JSONMap {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The Go type a JSON value decodes to, as `%T` prints it. */
function goType(v: unknown): string {
  if (v === null) return "<nil>";
  if (Array.isArray(v)) return "[]interface {}";
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
      return Number.isInteger(v) ? "int64" : "float64";
    case "boolean":
      return "bool";
    default:
      return "map[string]interface {}";
  }
}
