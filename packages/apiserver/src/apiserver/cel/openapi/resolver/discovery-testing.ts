/**
 * Resolving schemas at run time from a server's OpenAPI v3 over HTTP
 * (k8s.io/apiserver/pkg/cel/openapi/resolver/discovery.go ClientDiscoveryResolver): the
 * `/openapi/v3` index names each group version's document by its `serverRelativeURL`; the kind's
 * definition is read from that document with its references populated, as the in-process
 * resolver does (resolver.ts).
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { documentKey, schemaOfKind, type GroupVersionKind } from "./resolver.ts";

/** GETs a server-relative path and answers its decoded JSON body; rejects on a non-2xx answer. */
export type OpenAPIV3Get = (path: string) => Promise<unknown>;

/** resolver.ErrSchemaNotFound's text: what every failure to find a schema wraps. */
export const errSchemaNotFound = "schema not found";

/** The error ResolveSchema answers when the server publishes no schema of the kind. */
export class SchemaNotFoundError extends Error {
  constructor(message: string) {
    super(`${message}: ${errSchemaNotFound}`);
    this.name = "SchemaNotFoundError";
  }
}

/** schema.GroupVersion String(): `v1` for the legacy group, `apps/v1` otherwise. */
const gvString = (g: GroupVersionKind): string => (g.group === "" ? g.version : `${g.group}/${g.version}`);

/** ClientDiscoveryResolver: a schema resolver over a server's `/openapi/v3`, asked anew on each call. */
export class ClientDiscoveryResolver {
  readonly #get: OpenAPIV3Get;

  constructor(get: OpenAPIV3Get) {
    this.#get = get;
  }

  /** ResolveSchema: the kind's schema, references populated; rejects with a SchemaNotFoundError when there is none. */
  async resolveSchema(gvk: GroupVersionKind): Promise<JSONSchemaProps> {
    const index = (await this.#get("/openapi/v3")) as { paths?: Record<string, { serverRelativeURL?: string }> };
    const entry = index.paths?.[documentKey(gvk)];
    if (entry?.serverRelativeURL === undefined) {
      throw new SchemaNotFoundError(`cannot resolve group version ${JSON.stringify(gvString(gvk))}`);
    }
    const schema = schemaOfKind(await this.#get(entry.serverRelativeURL), gvk);
    if (schema === undefined) {
      throw new SchemaNotFoundError(`cannot resolve group version kind ${JSON.stringify(`${gvk.group}/${gvk.version}, Kind=${gvk.kind}`)}`);
    }
    return schema;
  }
}
