/** OpenAPI v2 and v3 documents generated from the zod schemas, and their HTTP handlers. */
export {
  createOpenAPIHandlers,
  acceptsJSON,
  acceptsV2Protobuf,
  openAPIV2Protobuf,
  type OpenAPIHandlers,
  type OpenAPIResponse,
} from "./handlers.ts";
export { buildOpenAPI, type OpenAPIDocuments, type OpenAPIOptions } from "./documents.ts";
export { schemaNames, apiSchemaModules, packagePrefix, type SchemaModule } from "./schema-names.ts";
export { groupVersion, gvPath, allVerbs, type OpenAPIResource } from "./resource.ts";
export { serviceDocs, type FieldDoc } from "./service-descriptions.ts";
export { networkingDocs } from "./networking-descriptions.ts";
export { rbacDocs } from "./rbac-descriptions.ts";
export type { OpenAPISchema } from "./zod-walk.ts";
export { encodeOpenAPIV2Proto } from "./proto-v2.ts";
export { resourcePaths } from "./paths.ts";
export { mergeOpenAPIV2Specs, mergeOpenAPIV3Specs, type MergedV3, type OpenAPISpec, type OpenAPISpecSource } from "./merge.ts";
