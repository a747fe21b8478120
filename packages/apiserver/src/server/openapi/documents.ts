/**
 * Builds the OpenAPI v2 (swagger 2.0) document and the per-group-version
 * OpenAPI v3 documents from the zod schemas of the served resources.
 */
import { ScaleSchema } from "@servicenet/api/autoscaling/v1";
import { packagePrefix, schemaNames } from "./schema-names.ts";
import { resourceListPath, resourcePaths } from "./paths.ts";
import { groupVersion, gvPath, type OpenAPIResource } from "./resource.ts";
import { defaultDocs, defineNamed, refPrefix, unwrap, type OpenAPISchema, type WalkContext, type ZodLike } from "./zod-walk.ts";
import type { FieldDoc } from "./service-descriptions.ts";

export interface OpenAPIOptions {
  /** Definition names by schema identity; defaults to the exports of @servicenet/api. */
  names?: Map<object, string>;
  /** Field docs by definition and field. */
  docs?: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>>;
  /** `info.version`, the server's gitVersion. */
  version?: string;
}

export interface OpenAPIDocuments {
  v2: OpenAPISchema;
  /** Keyed by `api/v1`, `apis/networking.k8s.io/v1`. */
  v3: Map<string, OpenAPISchema>;
  /** Every definition in its v3 form, for documents added later (custom resources) to reference. */
  schemas: ReadonlyMap<string, OpenAPISchema>;
}

const meta = "io.k8s.apimachinery.pkg.apis.meta.v1.";

interface Roots {
  object: string;
  list: string;
  /** The definitions of the create-only subresources' kinds, by subresource. */
  creates: Record<string, string>;
}

function addGVK(def: OpenAPISchema | undefined, gvk: { group: string; kind: string; version: string }): void {
  if (def === undefined) return;
  const list = (def["x-kubernetes-group-version-kind"] ?? []) as { group: string; kind: string; version: string }[];
  if (!list.some((g) => g.group === gvk.group && g.kind === gvk.kind && g.version === gvk.version)) list.push(gvk);
  def["x-kubernetes-group-version-kind"] = list;
}

function defineResource(ctx: WalkContext, r: OpenAPIResource): Roots {
  const schema = r.schema as ZodLike;
  const object = ctx.names.get(unwrap(schema).inner) ?? `${packagePrefix(r.group, r.version)}.${r.kind}`;
  defineNamed(ctx, object, schema, { kind: r.kind, path: [] });
  addGVK(ctx.defs.get(object), { group: r.group, kind: r.kind, version: r.version });
  let list = `${object}List`;
  if (r.listSchema !== undefined) {
    const ls = r.listSchema as ZodLike;
    list = ctx.names.get(unwrap(ls).inner) ?? list;
    defineNamed(ctx, list, ls, { kind: `${r.kind}List`, path: [] });
  } else if (!ctx.defs.has(list)) {
    // The list's doc comments where the tables have them (types.go's <Kind>List), else generic text.
    const docs = ctx.docs?.[list] ?? {};
    const doc = (field: string, schema: OpenAPISchema): OpenAPISchema =>
      docs[field] === undefined ? schema : { ...schema, description: docs[field].description };
    ctx.defs.set(list, {
      description: docs[""]?.description ?? `${r.kind}List is a list of ${r.kind} objects.`,
      type: "object",
      properties: {
        apiVersion: doc("apiVersion", { type: "string" }),
        items: doc("items", { type: "array", items: { $ref: refPrefix + object } }),
        kind: doc("kind", { type: "string" }),
        metadata: {
          allOf: [{ $ref: `${refPrefix}${meta}ListMeta` }],
          description: docs["metadata"]?.description ?? "Standard list metadata.",
        },
      },
      required: ["items"],
    });
  }
  addGVK(ctx.defs.get(list), { group: r.group, kind: `${r.kind}List`, version: r.version });
  const creates: Record<string, string> = {};
  for (const [sub, c] of Object.entries(r.createSubresources ?? {})) {
    const gvk = { group: c.group ?? r.group, kind: c.kind, version: c.version ?? r.version };
    const name = ctx.names.get(unwrap(c.schema as ZodLike).inner) ?? `${packagePrefix(gvk.group, gvk.version)}.${c.kind}`;
    defineNamed(ctx, name, c.schema as ZodLike, { kind: c.kind, path: [] });
    addGVK(ctx.defs.get(name), gvk);
    creates[sub] = name;
  }
  return { object, list, creates };
}

function ensureMetaDefs(ctx: WalkContext): void {
  const fallback: Record<string, OpenAPISchema> = {
    ListMeta: {
      type: "object",
      properties: {
        continue: { type: "string" },
        remainingItemCount: { type: "integer", format: "int64" },
        resourceVersion: { type: "string" },
        selfLink: { type: "string" },
      },
    },
    Status: {
      type: "object",
      description: "Status is a return value for calls that don't return other objects.",
      "x-kubernetes-preserve-unknown-fields": true,
    },
    Patch: { type: "object", description: "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body." },
    ...apiResourceListDefs,
  };
  for (const [name, def] of Object.entries(fallback)) if (!ctx.defs.has(meta + name)) ctx.defs.set(meta + name, def);
  // The kinds metav1.AddToGroupVersion registers as unversioned (v1) name these definitions, as
  // the definition namer of pkg/endpoints/openapi finds them in the scheme.
  addGVK(ctx.defs.get(`${meta}Status`), { group: "", kind: "Status", version: "v1" });
  addGVK(ctx.defs.get(`${meta}APIResourceList`), { group: "", kind: "APIResourceList", version: "v1" });
}

const strings = { type: "array", items: { default: "", type: "string" }, "x-kubernetes-list-type": "atomic" };

/** metav1.APIResource and APIResourceList, what GET /api/v1/ and /apis/<group>/<version>/ answer. */
const apiResourceListDefs: Record<string, OpenAPISchema> = {
  APIResource: {
    description: "APIResource specifies the name of a resource and whether it is namespaced.",
    type: "object",
    properties: {
      categories: { ...strings, description: "categories is a list of the grouped resources this resource belongs to (e.g. 'all')" },
      group: { type: "string", description: "group is the preferred group of the resource." },
      kind: { default: "", type: "string", description: "kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')" },
      name: { default: "", type: "string", description: "name is the plural name of the resource." },
      namespaced: { default: false, type: "boolean", description: "namespaced indicates if a resource is namespaced or not." },
      shortNames: { ...strings, description: "shortNames is a list of suggested short names of the resource." },
      singularName: { default: "", type: "string", description: "singularName is the singular name of the resource." },
      storageVersionHash: { type: "string", description: "The hash value of the storage version." },
      verbs: {
        type: "array",
        items: { default: "", type: "string" },
        description:
          "verbs is a list of supported kube verbs (this includes get, list, watch, create, update, patch, delete, deletecollection, and proxy)",
      },
      version: { type: "string", description: "version is the preferred version of the resource." },
    },
    required: ["name", "singularName", "namespaced", "kind", "verbs"],
  },
  APIResourceList: {
    description:
      "APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.",
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      groupVersion: { default: "", type: "string", description: "groupVersion is the group and version this APIResourceList is for." },
      kind: { type: "string" },
      resources: {
        type: "array",
        items: { allOf: [{ $ref: `${refPrefix}${meta}APIResource` }], default: {} },
        description: "resources contains the name of the resources and if they are namespaced.",
        "x-kubernetes-list-type": "atomic",
      },
    },
    required: ["groupVersion", "resources"],
  },
};

/** The names of every definition reachable from `roots` (by $ref). */
export function reachable(defs: Pick<ReadonlyMap<string, OpenAPISchema>, "get">, roots: unknown): Set<string> {
  const seen = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) {
      for (const [k, c] of Object.entries(v)) {
        if (k === "$ref" && typeof c === "string" && c.startsWith(refPrefix)) {
          const name = c.slice(refPrefix.length);
          if (!seen.has(name)) {
            seen.add(name);
            visit(defs.get(name));
          }
        } else visit(c);
      }
    }
  };
  visit(roots);
  return seen;
}

/** v3 -> v2: `#/definitions/` refs, and single-ref `allOf` folded into `$ref` with siblings as kube-openapi does for v2. */
function toV2(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toV2);
  if (typeof v !== "object" || v === null)
    return typeof v === "string" && v.startsWith(refPrefix) ? `#/definitions/${v.slice(refPrefix.length)}` : v;
  const o = v as OpenAPISchema;
  const allOf = o.allOf;
  if (Array.isArray(allOf) && allOf.length === 1) {
    const { allOf: _a, ...rest } = o;
    return toV2({ ...(allOf[0] as OpenAPISchema), ...rest });
  }
  return Object.fromEntries(Object.entries(o).map(([k, c]) => [k, toV2(c)]));
}

const security = { BearerToken: { type: "apiKey", name: "authorization", in: "header", description: "Bearer Token authentication" } };

/** Generates every document; pure and deterministic for a given resource list. */
export function buildOpenAPI(resources: readonly OpenAPIResource[], opts: OpenAPIOptions = {}): OpenAPIDocuments {
  const ctx: WalkContext = { names: opts.names ?? schemaNames(), defs: new Map(), docs: opts.docs ?? defaultDocs };
  const roots = resources.map((r) => ({ r, roots: defineResource(ctx, r) }));
  ensureMetaDefs(ctx);
  // Custom resources' scale subresource reads and returns it even when no built-in kind does.
  const scaleSchema = ScaleSchema as unknown as ZodLike;
  const scale = ctx.names.get(unwrap(scaleSchema).inner);
  if (scale !== undefined) defineNamed(ctx, scale, scaleSchema, { kind: "Scale", path: [] });
  const info = { title: "Kubernetes", version: opts.version ?? "v1.33.0" };
  const byGV = new Map<string, typeof roots>();
  for (const x of roots) byGV.set(gvPath(x.r), [...(byGV.get(gvPath(x.r)) ?? []), x]);

  const v3 = new Map<string, OpenAPISchema>();
  for (const [gv, members] of [...byGV].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const paths = Object.assign(
      resourceListPath("v3", members[0]!.r),
      ...members.map((m) => resourcePaths("v3", m.r, m.roots.object, m.roots.list, m.roots.creates)),
    ) as OpenAPISchema;
    const names = [...reachable(ctx.defs, paths)].sort();
    const schemas = Object.fromEntries(names.map((n) => [n, ctx.defs.get(n) ?? {}]));
    v3.set(gv, { openapi: "3.0.0", info, paths, components: { schemas, securitySchemes: security } });
  }
  // Each group version's resource list, then its resources' paths (v3's order, one document).
  const v2paths = Object.assign(
    {},
    ...[...byGV]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([, members]) => [
        resourceListPath("v2", members[0]!.r),
        ...members.map((m) => resourcePaths("v2", m.r, m.roots.object, m.roots.list, m.roots.creates)),
      ]),
  ) as OpenAPISchema;
  const definitions = Object.fromEntries([...ctx.defs.keys()].sort().map((n) => [n, toV2(ctx.defs.get(n))]));
  const v2 = { swagger: "2.0", info, paths: toV2(v2paths), definitions, securityDefinitions: security, security: [{ BearerToken: [] }] };
  return { v2, v3, schemas: ctx.defs };
}

export { groupVersion };
