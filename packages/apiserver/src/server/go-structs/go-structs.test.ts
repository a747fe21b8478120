/**
 * The Go struct tables tied to the zod schemas: every field a served kind's schema has is a field
 * of its Go struct (with its tag), and every struct type a field names is tabled, so a field added
 * to a schema fails here until its types.go facts are written down.
 */
import { describe, expect, it } from "vitest";
import { defOf, unwrap, type Schema } from "../schema-def.ts";
import { apiVersionOf, servableResources } from "../resources.ts";
import { goRootType, parseGoField, struct } from "./index.ts";

/** The JSON paths under `schema` that Go struct `go` (and the structs it nests) has no field for. */
function untabled(schema: Schema, go: string, path: string, seen: ReadonlySet<string>): string[] {
  const d = defOf(unwrap(schema));
  if (d.type === "array" && d.element) return untabled(d.element, go, `${path}[]`, seen);
  if (d.type === "record" && d.valueType) return untabled(d.valueType, go, `${path}{}`, seen);
  if (d.type !== "object" || !d.shape || seen.has(go)) return [];
  const fields = struct(go);
  if (fields === undefined) return [`${path} (${go})`];
  const next = new Set(seen).add(go);
  return Object.entries(d.shape).flatMap(([k, v]) => {
    const at = path === "" ? k : `${path}.${k}`;
    const spec = fields[k];
    if (spec === undefined) return [at];
    const f = parseGoField(spec);
    return f.struct === undefined ? [] : untabled(v, f.struct, at, next);
  });
}

/** Served kinds whose Go types live outside k8s.io/api (apiextensions-apiserver's CRD). */
const notTabled = new Set(["apiextensions.k8s.io/v1/CustomResourceDefinition"]);

describe("go-structs: a Go field for every field of every served kind", () => {
  const typed = servableResources.filter((r) => r.schema !== undefined && !notTabled.has(`${apiVersionOf(r)}/${r.kind}`));
  it.each(typed.map((r) => [`${apiVersionOf(r)}/${r.kind}`, r] as const))("%s", (_name, r) => {
    const root = goRootType(r.group, r.version, r.kind);
    expect(root, "the kind's Go struct is tabled").toBeDefined();
    expect(untabled(r.schema, root!, "", new Set())).toEqual([]);
  });
});

describe("parseGoField", () => {
  it.each([
    ["string,omitempty", { kind: "string", omitempty: true, struct: undefined }],
    ["int32", { kind: "int", omitempty: false, struct: undefined }],
    ["*bool,omitempty", { kind: "pointer", omitempty: true, struct: undefined }],
    ["[]discovery/v1.Endpoint", { kind: "slice", omitempty: false, struct: "discovery/v1.Endpoint" }],
    ["*core/v1.SessionAffinityConfig,omitempty", { kind: "pointer", omitempty: true, struct: "core/v1.SessionAffinityConfig" }],
    ["map[string]string,omitempty", { kind: "map", omitempty: true, struct: undefined }],
    ["core/v1.ServiceStatus,omitempty", { kind: "struct", omitempty: true, struct: "core/v1.ServiceStatus" }],
    ["meta/v1.Time,omitempty", { kind: "time", omitempty: true, struct: undefined }],
    ["intstr.IntOrString,omitempty", { kind: "intOrString", omitempty: true, struct: undefined }],
  ])("%s", (spec, want) => {
    expect(parseGoField(spec)).toEqual(want);
  });
});

describe("goRootType", () => {
  it.each([
    ["", "v1", "Service", "core/v1.Service"],
    ["networking.k8s.io", "v1beta1", "IPAddress", "networking/v1beta1.IPAddress"],
    ["autoscaling", "v1", "Scale", "autoscaling/v1.Scale"],
    // A custom resource's group is not the built-in group of its first label.
    ["apps.example.com", "v1", "Deployment", undefined],
  ])("%s %s %s", (group, version, kind, want) => {
    expect(goRootType(group, version, kind)).toBe(want);
  });
});
