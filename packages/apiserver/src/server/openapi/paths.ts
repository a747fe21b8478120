/**
 * The `paths` section of the OpenAPI documents: one path item per REST path
 * of each resource with the operation ids, `x-kubernetes-action` and
 * `x-kubernetes-group-version-kind` kube-apiserver publishes. kubectl reads
 * the PATCH operation's query parameters to decide whether the server does
 * field validation (`fieldValidation`) and dry run (`dryRun`).
 */
import { allVerbs, type OpenAPIResource } from "./resource.ts";
import type { OpenAPISchema } from "./zod-walk.ts";

export type Flavor = "v2" | "v3";

const metaPrefix = "io.k8s.apimachinery.pkg.apis.meta.v1.";

function ref(flavor: Flavor, name: string): OpenAPISchema {
  return { $ref: `${flavor === "v2" ? "#/definitions/" : "#/components/schemas/"}${name}` };
}

function param(flavor: Flavor, name: string, where: "query" | "path", type: string, description: string): OpenAPISchema {
  const base = { name, in: where, description, ...(where === "path" ? { required: true } : {}) };
  return flavor === "v2" ? { ...base, type, uniqueItems: true } : { ...base, schema: { type, uniqueItems: true } };
}

const queryDocs: Record<string, [string, string]> = {
  dryRun: [
    "string",
    "When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed",
  ],
  fieldManager: ["string", "fieldManager is a name associated with the actor or entity that is making these changes."],
  fieldValidation: [
    "string",
    "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict",
  ],
  force: ["boolean", 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people.'],
  labelSelector: ["string", "A selector to restrict the list of returned objects by their labels. Defaults to everything."],
  fieldSelector: ["string", "A selector to restrict the list of returned objects by their fields. Defaults to everything."],
  limit: ["integer", "limit is a maximum number of responses to return for a list call."],
  continue: ["string", "The continue option should be set when retrieving more results from the server."],
  resourceVersion: ["string", "resourceVersion sets a constraint on what resource versions a request may be served from."],
  watch: ["boolean", "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications."],
  timeoutSeconds: ["integer", "Timeout for the list/watch call."],
  allowWatchBookmarks: ["boolean", 'allowWatchBookmarks requests watch events with type "BOOKMARK".'],
  gracePeriodSeconds: ["integer", "The duration in seconds before the object should be deleted."],
  propagationPolicy: ["string", "Whether and how garbage collection will be performed."],
};

function queries(flavor: Flavor, names: readonly string[]): OpenAPISchema[] {
  return names.map((n) => {
    const [type, doc] = queryDocs[n] ?? ["string", ""];
    return param(flavor, n, "query", type, doc);
  });
}

const mediaJSON = ["application/json", "application/yaml"];
const builtinPatchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

function response(flavor: Flavor, schema: OpenAPISchema): OpenAPISchema {
  if (flavor === "v2") return { "200": { description: "OK", schema }, "401": { description: "Unauthorized" } };
  return {
    "200": { description: "OK", content: Object.fromEntries(mediaJSON.map((m) => [m, { schema }])) },
    "401": { description: "Unauthorized" },
  };
}

function body(
  flavor: Flavor,
  schema: OpenAPISchema,
  types: readonly string[],
): { parameters: OpenAPISchema[]; requestBody?: OpenAPISchema } {
  if (flavor === "v2") return { parameters: [{ name: "body", in: "body", required: true, schema }] };
  return { parameters: [], requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema }])), required: true } };
}

/**
 * ToValidOperationID (apiserver pkg/endpoints/openapi/openapi.go): drops what is not a letter,
 * `_` or a non-leading digit and capitalises the letter after each dropped run.
 */
function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = "";
  let capitalize = capitalizeFirst;
  [...s].forEach((c, i) => {
    if (/\p{L}/u.test(c) || c === "_" || (i !== 0 && /\p{Nd}/u.test(c))) {
      out += capitalize ? c.toUpperCase() : c;
      capitalize = false;
    } else capitalize = true;
  });
  return out;
}

/** The group as GetOperationIDAndTags names it: `core`, `networking`, `rbac.authorization`, `stable.example.com`. */
function groupToken(r: OpenAPIResource): string {
  return r.group === "" ? "core" : r.group.replace(/\.k8s\.io$/, "");
}

/** `listCoreV1NamespacedService`, `patchRbacAuthorizationV1ClusterRole`, `readStableExampleComV1NamespacedCronTabStatus`. */
function operationId(verb: string, r: OpenAPIResource, namespaced: boolean, suffix = ""): string {
  const prefix = `${verb}${toValidOperationID(groupToken(r), true)}${toValidOperationID(r.version, true)}`;
  return `${prefix}${namespaced ? "Namespaced" : ""}${r.kind}${suffix}`;
}

/** The operation tag: `core_v1`, `rbacAuthorization_v1`, `stableExampleCom_v1`. */
function operationTag(r: OpenAPIResource): string {
  return `${toValidOperationID(groupToken(r), false)}_${toValidOperationID(r.version, false)}`;
}

interface Op {
  verb: string;
  action: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  id: string;
  returns: string;
  query: readonly string[];
  body?: { schema: string; types: readonly string[] };
}

/** The path items of one resource, keyed by path. */
export function resourcePaths(
  flavor: Flavor,
  r: OpenAPIResource,
  objectDef: string,
  listDef: string,
  createDefs: Readonly<Record<string, string>> = {},
): Record<string, OpenAPISchema> {
  const verbs = new Set(r.verbs ?? allVerbs);
  const base = r.group === "" ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced ? "/namespaces/{namespace}" : "";
  const gvk = { group: r.group, kind: r.kind, version: r.version };
  const write = ["dryRun", "fieldManager", "fieldValidation"];
  const listQ = [
    "allowWatchBookmarks",
    "continue",
    "fieldSelector",
    "labelSelector",
    "limit",
    "resourceVersion",
    "timeoutSeconds",
    "watch",
  ];
  const status = `${metaPrefix}Status`;
  const patchTypes = r.patchTypes ?? builtinPatchTypes;
  const item = (sub: string, def: string): Op[] => [
    { verb: "get", action: "get", method: "get", id: operationId("read", r, r.namespaced, sub), returns: def, query: [] },
    {
      verb: "update",
      action: "put",
      method: "put",
      id: operationId("replace", r, r.namespaced, sub),
      returns: def,
      query: write,
      body: { schema: def, types: ["application/json"] },
    },
    {
      verb: "patch",
      action: "patch",
      method: "patch",
      id: operationId("patch", r, r.namespaced, sub),
      returns: def,
      query: [...write, "force"],
      body: { schema: `${metaPrefix}Patch`, types: patchTypes },
    },
  ];
  const out: Record<string, OpenAPISchema> = {};
  const add = (path: string, ops: Op[], pathParams: string[], kind = gvk): void => {
    const served = ops.filter((o) => verbs.has(o.verb));
    if (served.length === 0) return;
    const pathItem: OpenAPISchema = {
      parameters: [
        ...pathParams.map((p) =>
          param(
            flavor,
            p,
            "path",
            "string",
            p === "name" ? `name of the ${kind.kind}` : "object name and auth scope, such as for teams and projects",
          ),
        ),
        param(flavor, "pretty", "query", "string", "If 'true', then the output is pretty printed."),
      ],
    };
    for (const o of served) {
      const b = o.body ? body(flavor, ref(flavor, o.body.schema), o.body.types) : { parameters: [] };
      pathItem[o.method] = {
        operationId: o.id,
        tags: [operationTag(r)],
        ...(flavor === "v2" ? { consumes: o.body?.types ?? ["*/*"], produces: mediaJSON, schemes: ["https"] } : {}),
        parameters: [...b.parameters, ...queries(flavor, o.query)],
        ...(b.requestBody ? { requestBody: b.requestBody } : {}),
        responses: response(flavor, ref(flavor, o.returns)),
        "x-kubernetes-action": o.action,
        "x-kubernetes-group-version-kind": kind,
      };
    }
    out[path] = pathItem;
  };
  const nsParams = r.namespaced ? ["namespace"] : [];
  add(
    `${base}${ns}/${r.resource}`,
    [
      { verb: "list", action: "list", method: "get", id: operationId("list", r, r.namespaced), returns: listDef, query: listQ },
      {
        verb: "create",
        action: "post",
        method: "post",
        id: operationId("create", r, r.namespaced),
        returns: objectDef,
        query: write,
        body: { schema: objectDef, types: ["application/json"] },
      },
      {
        verb: "deletecollection",
        action: "deletecollection",
        method: "delete",
        id: operationId("deletecollection", r, r.namespaced),
        returns: status,
        query: ["dryRun", "labelSelector", "fieldSelector", "gracePeriodSeconds", "propagationPolicy"],
      },
    ],
    nsParams,
  );
  add(
    `${base}${ns}/${r.resource}/{name}`,
    [
      ...item("", objectDef),
      {
        verb: "delete",
        action: "delete",
        method: "delete",
        id: operationId("delete", r, r.namespaced),
        returns: status,
        query: ["dryRun", "gracePeriodSeconds", "propagationPolicy"],
      },
    ],
    [...nsParams, "name"],
  );
  for (const sub of r.subresources ?? []) {
    const def = r.subresourceSchemas?.[sub] ?? objectDef;
    add(
      `${base}${ns}/${r.resource}/{name}/${sub}`,
      item(
        sub.replace(/^./, (c) => c.toUpperCase()),
        def,
      ),
      [...nsParams, "name"],
    );
  }
  for (const [sub, def] of Object.entries(createDefs)) {
    const c = r.createSubresources![sub]!;
    const create: Op = {
      verb: "create",
      action: "post",
      method: "post",
      id: operationId(
        "create",
        r,
        r.namespaced,
        sub.replace(/^./, (ch) => ch.toUpperCase()),
      ),
      returns: def,
      query: write,
      body: { schema: def, types: ["application/json"] },
    };
    add(`${base}${ns}/${r.resource}/{name}/${sub}`, [create], [...nsParams, "name"], {
      group: c.group ?? r.group,
      kind: c.kind,
      version: c.version ?? r.version,
    });
  }
  if (r.namespaced) {
    add(
      `${base}/${r.resource}`,
      [
        {
          verb: "list",
          action: "list",
          method: "get",
          id: operationId("list", r, false, "ForAllNamespaces"),
          returns: listDef,
          query: listQ,
        },
      ],
      [],
    );
  }
  return out;
}

/**
 * The path of a group version's resource list (`/api/v1/`, `/apis/apps/v1/`): GET answers the
 * APIResourceList, as every group version's routes in pkg/endpoints/discovery publish it.
 */
export function resourceListPath(flavor: Flavor, r: OpenAPIResource): Record<string, OpenAPISchema> {
  const base = r.group === "" ? `/api/${r.version}/` : `/apis/${r.group}/${r.version}/`;
  const get = {
    description: "get available resources",
    operationId: `get${toValidOperationID(groupToken(r), true)}${toValidOperationID(r.version, true)}APIResources`,
    tags: [operationTag(r)],
    ...(flavor === "v2" ? { consumes: mediaJSON, produces: mediaJSON, schemes: ["https"] } : {}),
    responses: response(flavor, ref(flavor, `${metaPrefix}APIResourceList`)),
  };
  return { [base]: { get } };
}
