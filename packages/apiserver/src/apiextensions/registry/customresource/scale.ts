/**
 * The `scale` subresource of custom resources (apiextensions-apiserver pkg/registry/customresource/
 * etcd.go ScaleREST, scaleFromCustomResource and scaleUpdatedObjectInfo): an autoscaling/v1
 * Scale read from the CRD's specReplicasPath, statusReplicasPath and labelSelectorPath, whose
 * spec.replicas is written back to specReplicasPath.
 */
import { ScaleSchema, StatusError, type Scale } from "@servicenet/api";
import type { CustomResourceSubresourceScale } from "@servicenet/api/apiextensions/v1";
import { scaleObjectMeta } from "../../../registry/apps/scale.ts";
import type { SubresourceView } from "../../../registry/rest/subresource-view.ts";

/** Go's %T of an unstructured value, for the accessor errors. */
function goType(v: unknown): string {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int64" : "float64";
  if (typeof v === "bigint") return "int64";
  if (Array.isArray(v)) return "[]interface {}";
  return v === null ? "<nil>" : "map[string]interface {}";
}

/** Go's %v of an unstructured scalar or slice (`[a b]`). */
function goV(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goV).join(" ")}]`;
  if (v !== null && typeof v === "object")
    return `map[${Object.entries(v)
      .map(([k, x]) => `${k}:${goV(x)}`)
      .join(" ")}]`;
  return String(v);
}

const fields = (path: string): string[] => path.replace(/^\./, "").split(".");

/** unstructured.NestedFieldNoCopy: the value at `path` and whether it was found (a non-map on the way is an error). */
function nested(obj: unknown, path: string): { value: unknown; found: boolean } {
  let cur: unknown = obj;
  const fs = fields(path);
  for (let i = 0; i < fs.length; i++) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) {
      if (cur === undefined || cur === null) return { value: undefined, found: false };
      throw new Error(
        `${"." + fs.slice(0, i).join(".")} accessor error: ${goV(cur)} is of the type ${goType(cur)}, expected map[string]interface{}`,
      );
    }
    const m = cur as Record<string, unknown>;
    if (!Object.hasOwn(m, fs[i]!)) return { value: undefined, found: false };
    cur = m[fs[i]!];
  }
  return { value: cur, found: true };
}

/**
 * unstructured.NestedInt64: an integer at `path` (0 and not found when absent). An int64 no double
 * holds is a bigint in a custom resource (util/json), and is returned as one.
 */
export function nestedInt64(obj: unknown, path: string): { value: number | bigint; found: boolean } {
  const { value, found } = nested(obj, path);
  if (!found) return { value: 0, found: false };
  if (typeof value === "bigint") return { value, found: true };
  if (typeof value !== "number" || !Number.isInteger(value))
    throw new Error(`.${fields(path).join(".")} accessor error: ${goV(value)} is of the type ${goType(value)}, expected int64`);
  return { value, found: true };
}

/** Go's int32(v) of an int64: its low 32 bits, as scaleFromCustomResource converts the replicas. */
export function int32Of(v: number | bigint): number {
  return Number(BigInt.asIntN(32, BigInt(v)));
}

/** unstructured.NestedString. */
export function nestedString(obj: unknown, path: string): string {
  const { value, found } = nested(obj, path);
  if (!found) return "";
  if (typeof value !== "string")
    throw new Error(`.${fields(path).join(".")} accessor error: ${goV(value)} is of the type ${goType(value)}, expected string`);
  return value;
}

/** An accessor error is the server's (ScaleREST.Get returns it as is: a 500). */
function internal<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw StatusError.internal(e instanceof Error ? e.message : String(e));
  }
}

/** The scale view of a CRD version with `subresources.scale`. */
export function customResourceScaleView(
  group: string,
  plural: string,
  scale: CustomResourceSubresourceScale,
  replicasPaths: ReadonlyMap<string, readonly string[] | null>,
): SubresourceView {
  return {
    replicasPaths,
    group: "autoscaling",
    version: "v1",
    kind: "Scale",
    schema: ScaleSchema,
    toView: (cr) =>
      internal(() => {
        const m = cr.metadata;
        const labelSelector = scale.labelSelectorPath ? nestedString(cr, scale.labelSelectorPath) : "";
        return {
          metadata: scaleObjectMeta(m),
          spec: { replicas: int32Of(nestedInt64(cr, scale.specReplicasPath).value) },
          status: {
            replicas: int32Of(nestedInt64(cr, scale.statusReplicasPath).value),
            ...(labelSelector !== "" ? { selector: labelSelector } : {}),
          },
        };
      }),
    validate: () => [],
    apply: (cr, view) => {
      const s = view as unknown as Scale;
      if ((s.metadata.uid ?? "") !== "" && s.metadata.uid !== cr.metadata.uid)
        throw StatusError.conflict(
          { group, resource: `${plural}/scale` },
          cr.metadata.name ?? "",
          `Precondition failed: UID in precondition: ${s.metadata.uid}, UID in object meta: ${cr.metadata.uid ?? ""}`,
        );
      const out = structuredClone(cr);
      // unstructured.SetNestedField: the maps on the way are created.
      let cur = out as Record<string, unknown>;
      const fs = fields(scale.specReplicasPath);
      for (const f of fs.slice(0, -1)) {
        const next = cur[f];
        cur = (next !== null && typeof next === "object" && !Array.isArray(next) ? next : (cur[f] = {})) as Record<string, unknown>;
      }
      cur[fs[fs.length - 1]!] = s.spec.replicas ?? 0;
      // The client's resourceVersion is a precondition; none means an unconditional update.
      if ((s.metadata.resourceVersion ?? "") !== "") out.metadata.resourceVersion = s.metadata.resourceVersion;
      else delete out.metadata.resourceVersion;
      return out;
    },
  };
}
