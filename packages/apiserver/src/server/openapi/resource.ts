/** What the OpenAPI documents need to know about one served resource. */
export interface OpenAPIResource {
  /** API group, "" for the legacy core group. */
  group: string;
  version: string;
  kind: string;
  /** Plural resource name, `services`. */
  resource: string;
  namespaced: boolean;
  /** The zod schema of the object (ServiceSchema). */
  schema: unknown;
  /** The zod schema of the list; synthesised from `schema` when absent. */
  listSchema?: unknown;
  /** Subresources with get/put/patch, e.g. ["status"]. */
  subresources?: readonly string[];
  /** Definition names a subresource reads and returns when it is not the object (`scale`: autoscaling/v1 Scale). */
  subresourceSchemas?: Readonly<Record<string, string>>;
  /**
   * Subresources served by create only, with the kind each takes and answers (pods/binding: v1
   * Binding); `group` and `version` are the resource's unless given.
   */
  createSubresources?: Readonly<Record<string, { kind: string; schema: unknown; group?: string; version?: string }>>;
  /** PATCH content types; built-in kinds take all four, custom resources no strategic merge patch. */
  patchTypes?: readonly string[];
  /** Verbs served; defaults to all of get, list, watch, create, update, patch, delete, deletecollection. */
  verbs?: readonly string[];
}

/** `v1` or `networking.k8s.io/v1`. */
export function groupVersion(r: Pick<OpenAPIResource, "group" | "version">): string {
  return r.group === "" ? r.version : `${r.group}/${r.version}`;
}

/** The discovery path of a group version: `api/v1` or `apis/networking.k8s.io/v1` (the /openapi/v3 key). */
export function gvPath(r: Pick<OpenAPIResource, "group" | "version">): string {
  return r.group === "" ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
}

export const allVerbs = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"] as const;
