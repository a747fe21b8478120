/**
 * The hand-kept side tables beside the zod schemas, checked against them: every struct-typed
 * field of a Go-typed kind has its Go type (go-types.ts, for encoding/json's error texts), and
 * every property of a documented OpenAPI definition has a description
 * (openapi/*-descriptions.ts, for `kubectl explain`), and every field of a kind kubectl sends as
 * protobuf has its field number (protobuf/schema.ts). A field added to a schema and not to the
 * tables fails here instead of silently going without.
 */
import { describe, expect, it } from "vitest";
import { goTypesOf } from "./go-types.ts";
import { buildOpenAPI } from "./openapi/documents.ts";
import { configMapDocs } from "./openapi/configmap-descriptions.ts";
import { secretDocs } from "./openapi/secret-descriptions.ts";
import { networkingDocs } from "./openapi/networking-descriptions.ts";
import { rbacDocs } from "./openapi/rbac-descriptions.ts";
import { serviceDocs } from "./openapi/service-descriptions.ts";
import { unwrap } from "./openapi/zod-walk.ts";
import { messages } from "./protobuf/schema.ts";
import { apiVersionOf, servableResources } from "./resources.ts";

type Zod = Parameters<typeof unwrap>[0];

/** The JSON paths of the struct-typed fields under `schema` (list items as `[]`), as go-types keys them. */
function structPaths(schema: Zod, path = "", seen: ReadonlySet<object> = new Set()): string[] {
  const { inner } = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === "array") return structPaths(def["element"] as Zod, `${path}[]`, seen);
  if (def.type !== "object" || seen.has(inner)) return [];
  const next = new Set(seen).add(inner);
  const fields = Object.entries(def["shape"] as Record<string, Zod>);
  return [path, ...fields.flatMap(([k, v]) => structPaths(v, path === "" ? k : `${path}.${k}`, next))];
}

describe("go-types: a Go struct type for every struct-typed field", () => {
  const typed = servableResources.filter((r) => r.schema !== undefined && goTypesOf(apiVersionOf(r), r.kind) !== undefined);
  it.each(typed.map((r) => [`${apiVersionOf(r)}/${r.kind}`, r] as const))("%s", (_name, r) => {
    const types = goTypesOf(apiVersionOf(r), r.kind)!;
    expect(structPaths(r.schema as Zod).filter((p) => types.struct(p) === undefined)).toEqual([]);
  });
});

describe("OpenAPI descriptions: every property of a documented definition", () => {
  const docs = buildOpenAPI(
    servableResources
      .filter((r) => r.schema !== undefined)
      .map((r) => ({ group: r.group, version: r.version, kind: r.kind, resource: r.resource, namespaced: r.namespaced, schema: r.schema })),
  );
  const defs = new Map<string, { properties?: Record<string, { description?: string }> }>();
  for (const doc of docs.v3.values())
    for (const [name, def] of Object.entries((doc as { components: { schemas: Record<string, object> } }).components.schemas))
      defs.set(name, def);
  const documented = Object.keys({ ...serviceDocs, ...configMapDocs, ...secretDocs, ...networkingDocs, ...rbacDocs });
  it.each(documented)("%s", (name) => {
    const props = defs.get(name)?.properties;
    expect(props, `${name} is served`).toBeDefined();
    const missing = Object.keys(props!).filter((p) => props![p]!.description === undefined);
    expect(missing).toEqual([]);
  });
});

/** The zod fields under `schema` that message `name` (and the messages it nests) has no number for. */
function unnumbered(schema: Zod, name: string, path = "", seen: ReadonlySet<string> = new Set()): string[] {
  const { inner } = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === "array") return unnumbered(def["element"] as Zod, name, `${path}[]`, seen);
  const message = messages[name];
  if (def.type !== "object" || message === undefined || seen.has(name)) return [];
  // An inlined message's fields (IngressRule's IngressRuleValue) are the parent's in JSON.
  const fields = Object.values(message).flatMap((f) =>
    f.inline === true && typeof f.type === "object" ? Object.values(messages[f.type.message] ?? {}) : [f],
  );
  const byName = new Map(fields.map((f) => [f.name, f]));
  const next = new Set(seen).add(name);
  return Object.entries(def["shape"] as Record<string, Zod>).flatMap(([k, v]) => {
    const at = path === "" ? k : `${path}.${k}`;
    if (path === "" && (k === "apiVersion" || k === "kind")) return [];
    const f = byName.get(k);
    if (f === undefined) return [at];
    return typeof f.type === "object" ? unnumbered(v, f.type.message, at, next) : [];
  });
}

describe("protobuf: a field number for every field of the kinds kubectl sends as protobuf", () => {
  const sent = servableResources.filter((r) => r.schema !== undefined && messages[r.kind] !== undefined);
  it.each(sent.map((r) => [`${apiVersionOf(r)}/${r.kind}`, r] as const))("%s", (_name, r) => {
    expect(unnumbered(r.schema as Zod, r.kind)).toEqual([]);
  });
});
