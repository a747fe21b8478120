/**
 * BuildOpenAPIV2 and BuildOpenAPIV3 (apiextensions-apiserver pkg/controller/openapi/builder/
 * builder.go): the definitions and paths one served version of a CRD adds to the OpenAPI
 * documents. The object's definition is its structural schema, unfolded, with apiVersion, kind and
 * a `metadata` reference to ObjectMeta, and for v2 without what v2 cannot say
 * (ToStructuralOpenAPIV2); the list definition holds `items` of it. The paths are those of
 * registerResourceHandlers, with the status and scale subresources the version has.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { gvPath, type OpenAPIResource, type OpenAPISchema } from "../../../../server/openapi/index.ts";
import { resourcePaths } from "../../../../server/openapi/paths.ts";
import { toKubeOpenAPI } from "../../../apiserver/schema/kubeopenapi.ts";
import { unfold } from "../../../apiserver/schema/unfold.ts";
import { toStructuralOpenAPIV2 } from "../v2/conversion.ts";

const meta = "io.k8s.apimachinery.pkg.apis.meta.v1.";
const conv = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";

/** TypeMeta's generated property schemas. */
const typeMeta = {
  apiVersion: {
    description: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${conv}#resources`,
    type: "string",
  },
  kind: {
    description: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${conv}#types-kinds`,
    type: "string",
  },
};
/** PartialObjectMetadata's and PartialObjectMetadataList's `metadata` docs. */
const objectMetaDoc = `Standard object's metadata. More info: ${conv}#metadata`;
const listMetaDoc = `Standard list metadata. More info: ${conv}#types-kinds`;

export interface BuilderOptions {
  /** OpenAPI v2 (`#/definitions/`, ToStructuralOpenAPIV2) rather than v3 (`#/components/schemas/`). */
  v2: boolean;
}

/** What one CRD version adds: paths, and definitions by name (refs in the flavor's form). */
export interface CRDOpenAPISpec {
  /** The /openapi/v3 key: `apis/<group>/<version>`. */
  gv: string;
  paths: Record<string, OpenAPISchema>;
  definitions: Record<string, OpenAPISchema>;
}

/** ToRESTFriendlyName (kube-openapi pkg/util): `stable.example.com/v1/CronTab` -> `com.example.stable.v1.CronTab`. */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

/** A reference with a description: v2 writes siblings, v3 wraps the ref in allOf (builder3 WrapRefs). */
function describedRef(name: string, description: string, v2: boolean): OpenAPISchema {
  return v2 ? { $ref: `#/definitions/${name}`, description } : { allOf: [{ $ref: `#/components/schemas/${name}` }], description };
}

/** addEmbeddedProperties: apiVersion, kind and metadata of every `x-kubernetes-embedded-resource`. */
function addEmbeddedProperties(s: OpenAPISchema, v2: boolean): void {
  const props = s.properties as Record<string, OpenAPISchema> | undefined;
  for (const p of Object.values(props ?? {})) addEmbeddedProperties(p, v2);
  if (typeof s.items === "object" && s.items !== null) addEmbeddedProperties(s.items as OpenAPISchema, v2);
  if (typeof s.additionalProperties === "object" && s.additionalProperties !== null)
    addEmbeddedProperties(s.additionalProperties as OpenAPISchema, v2);
  // v2 readers refuse unknown fields next to declared ones: no metadata where unknown fields are kept.
  if (v2 && s["x-kubernetes-preserve-unknown-fields"] === true) return;
  if (s["x-kubernetes-embedded-resource"] !== true) return;
  s.properties = {
    ...props,
    apiVersion: {
      ...typeMeta.apiVersion,
      description: `apiVersion defines the versioned schema of this representation of an object. More info: ${conv}#resources`,
    },
    kind: {
      ...typeMeta.kind,
      description: `kind is a string value representing the type of this object. In CamelCase. More info: ${conv}#types-kinds`,
    },
    metadata: describedRef(`${meta}ObjectMeta`, objectMetaDoc, v2),
  };
  const required = (s.required as string[] | undefined) ?? [];
  s.required = [...required, ...["kind", "apiVersion"].filter((f) => !required.includes(f))];
}

/** buildKubeNative: the object's definition. */
export function buildKubeNative(crd: CustomResourceDefinition, version: string, o: BuilderOptions): OpenAPISchema {
  const raw = crd.spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
  const gvk = [{ group: crd.spec.group, kind: crd.spec.names.kind, version }];
  // Without properties: kubectl's v2 readers would take the absence of a field as "unknown field".
  if (raw === undefined || (o.v2 && (raw["x-kubernetes-preserve-unknown-fields"] === true || crd.spec.preserveUnknownFields === true)))
    return { type: "object", "x-kubernetes-group-version-kind": gvk, ...selectableFieldsExtension(crd, version) };
  let schema = unfold(toKubeOpenAPI(raw));
  if (o.v2) schema = toStructuralOpenAPIV2(schema);
  const s = schema as OpenAPISchema;
  s.properties = {
    ...(s.properties as Record<string, OpenAPISchema> | undefined),
    metadata: describedRef(`${meta}ObjectMeta`, objectMetaDoc, o.v2),
    apiVersion: { ...typeMeta.apiVersion },
    kind: { ...typeMeta.kind },
  };
  addEmbeddedProperties(s, o.v2);
  s["x-kubernetes-group-version-kind"] = gvk;
  return Object.assign(s, selectableFieldsExtension(crd, version));
}

/**
 * buildSelectableFields: the version's selectableFields as `x-kubernetes-selectable-fields`, on the
 * kind and its list (IncludeSelectableFields: CustomResourceFieldSelectors is GA and always on).
 */
function selectableFieldsExtension(crd: CustomResourceDefinition, version: string): OpenAPISchema {
  const fields = crd.spec.versions.find((v) => v.name === version)?.selectableFields ?? [];
  if (fields.length === 0) return {};
  return { "x-kubernetes-selectable-fields": fields.map((f) => ({ fieldPath: f.jsonPath.replace(/^\./, "") })) };
}

/** buildListSchema: the list kind's definition. */
export function buildListSchema(crd: CustomResourceDefinition, version: string, o: BuilderOptions): OpenAPISchema {
  const { kind, plural } = crd.spec.names;
  const listKind = crd.spec.names.listKind ?? `${kind}List`;
  const item = definitionName(crd.spec.group, version, kind);
  return {
    description: `${listKind} is a list of ${kind}`,
    required: ["items"],
    properties: {
      items: {
        type: "array",
        description: `List of ${plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        items: { $ref: `${o.v2 ? "#/definitions/" : "#/components/schemas/"}${item}` },
      },
      metadata: describedRef(`${meta}ListMeta`, listMetaDoc, o.v2),
      apiVersion: { ...typeMeta.apiVersion },
      kind: { ...typeMeta.kind },
    },
    "x-kubernetes-group-version-kind": [{ group: crd.spec.group, kind: listKind, version }],
    ...selectableFieldsExtension(crd, version),
  };
}

/** The OpenAPI resource of a CRD version, for the paths builder. */
function resourceOf(crd: CustomResourceDefinition, version: string): OpenAPIResource {
  const sub = crd.spec.versions.find((v) => v.name === version)?.subresources;
  return {
    group: crd.spec.group,
    version,
    kind: crd.spec.names.kind,
    resource: crd.spec.names.plural,
    namespaced: crd.spec.scope === "Namespaced",
    schema: undefined,
    subresources: [...(sub?.status !== undefined ? ["status"] : []), ...(sub?.scale !== undefined ? ["scale"] : [])],
    subresourceSchemas: { scale: "io.k8s.api.autoscaling.v1.Scale" },
    // No strategic merge patch for custom resources.
    patchTypes: ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"],
  };
}

/** BuildOpenAPIV2 / BuildOpenAPIV3 for one served version of `crd`. */
export function buildCRDOpenAPI(crd: CustomResourceDefinition, version: string, o: BuilderOptions): CRDOpenAPISpec {
  const object = definitionName(crd.spec.group, version, crd.spec.names.kind);
  const list = definitionName(crd.spec.group, version, crd.spec.names.listKind ?? `${crd.spec.names.kind}List`);
  const r = resourceOf(crd, version);
  return {
    gv: gvPath(r),
    paths: resourcePaths(o.v2 ? "v2" : "v3", r, object, list),
    definitions: { [object]: buildKubeNative(crd, version, o), [list]: buildListSchema(crd, version, o) },
  };
}
