/**
 * Resolving the schema of a kind from the server's OpenAPI v3 documents
 * (k8s.io/apiserver/pkg/cel/openapi/resolver: resolver.go SchemaResolver, discovery.go
 * ClientDiscoveryResolver.ResolveSchema and refs.go PopulateRefs): the document of the kind's group
 * version, the definition whose `x-kubernetes-group-version-kind` names it, with every reference
 * replaced by the definition it names. Built-in kinds and custom resources resolve alike, as the
 * documents of both are served at /openapi/v3.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

/** A group, version and kind. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** SchemaResolver: the schema of a kind, or undefined when none is known (upstream's ErrSchemaNotFound). */
export interface SchemaResolver {
  resolveSchema(gvk: GroupVersionKind): JSONSchemaProps | undefined;
}

type Schema = { [key: string]: unknown };

const refPrefix = "#/components/schemas/";

/** The /openapi/v3 key of a group version: `api/v1` or `apis/<group>/<version>`. */
export const documentKey = (gvk: GroupVersionKind): string =>
  gvk.group === "" ? `api/${gvk.version}` : `apis/${gvk.group}/${gvk.version}`;

const names = (def: Schema, gvk: GroupVersionKind): boolean =>
  ((def["x-kubernetes-group-version-kind"] ?? []) as GroupVersionKind[]).some(
    (g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind,
  );

/**
 * populateRefs: `schema` with `$ref` (and kube-openapi's single-reference `allOf`) replaced by
 * the definitions they name; a reference back into one being resolved stays an untyped schema.
 */
function populateRefs(schema: unknown, defs: Readonly<Record<string, Schema>>, resolving: ReadonlySet<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => populateRefs(s, defs, resolving));
  if (typeof schema !== "object" || schema === null) return schema;
  let s = schema as Schema;
  const allOf = s["allOf"];
  if (Array.isArray(allOf) && allOf.length === 1) {
    const { allOf: _allOf, ...rest } = s;
    s = { ...(allOf[0] as Schema), ...rest };
  }
  const ref = s["$ref"];
  if (typeof ref === "string" && ref.startsWith(refPrefix)) {
    const name = ref.slice(refPrefix.length);
    const { $ref: _ref, ...rest } = s;
    if (resolving.has(name) || defs[name] === undefined) return rest;
    return { ...(populateRefs(defs[name], defs, new Set([...resolving, name])) as Schema), ...rest };
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k.startsWith("x-kubernetes-") ? v : populateRefs(v, defs, resolving)]));
}

/**
 * resolveType and populateRefs: the definition of `doc` (one group version's OpenAPI v3 document)
 * whose `x-kubernetes-group-version-kind` names `gvk`, references populated; undefined without one.
 */
export function schemaOfKind(doc: unknown, gvk: GroupVersionKind): JSONSchemaProps | undefined {
  const defs = (doc as { components?: { schemas?: Record<string, Schema> } } | undefined)?.components?.schemas ?? {};
  const name = Object.keys(defs).find((n) => names(defs[n]!, gvk));
  if (name === undefined) return undefined;
  return populateRefs(defs[name], defs, new Set([name])) as JSONSchemaProps;
}

/** A resolver over the OpenAPI v3 documents `documents` gives (keyed as /openapi/v3 serves them). */
export function documentsSchemaResolver(documents: () => ReadonlyMap<string, Schema>): SchemaResolver {
  return { resolveSchema: (gvk) => schemaOfKind(documents().get(documentKey(gvk)), gvk) };
}
