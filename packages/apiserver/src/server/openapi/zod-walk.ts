/**
 * Converts zod 4 schemas into Kubernetes-flavoured OpenAPI schemas, the way
 * kube-openapi renders Go types: named nested types become definitions
 * referenced with `$ref`, list and map fields carry the `x-kubernetes-*`
 * merge extensions from the shared patch metadata, descriptions come from
 * the zod schema or from upstream's doc comments.
 *
 * It reads zod's public-but-internal `_zod.def` tree so that this package
 * needs no zod dependency of its own; only the def kinds our API uses are handled.
 */
import { lookupFieldMeta } from "../patch/index.ts";
import { configMapDocs } from "./configmap-descriptions.ts";
import { metaDocs } from "./meta-descriptions.ts";
import { secretDocs } from "./secret-descriptions.ts";
import { networkingDocs } from "./networking-descriptions.ts";
import { rbacDocs } from "./rbac-descriptions.ts";
import { serviceDocs, type FieldDoc } from "./service-descriptions.ts";

export type OpenAPISchema = { [key: string]: unknown };

/** The minimal view of a zod schema this walker needs. */
interface ZodLike {
  _zod: { def: { type: string; [k: string]: unknown }; bag?: Record<string, unknown>; optin?: string };
  description?: string;
  meta?: () => Record<string, unknown> | undefined;
}

export const refPrefix = "#/components/schemas/";
export const intOrString = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

/** Definition names for schema objects, and the defs produced so far. */
export interface WalkContext {
  names: Map<object, string>;
  defs: Map<string, OpenAPISchema>;
  /** Docs by definition name and field ("" for the type itself). */
  docs?: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>>;
}

const wrappers = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional", "success"]);

function isZod(s: unknown): s is ZodLike {
  return typeof s === "object" && s !== null && "_zod" in s;
}

function descriptionOf(s: ZodLike): string | undefined {
  const m = typeof s.meta === "function" ? s.meta() : undefined;
  const d = m?.description ?? s.description;
  return typeof d === "string" ? d : undefined;
}

/** Strips optional/default/... wrappers, keeping the first description met and whether a value may be absent. */
export function unwrap(s: ZodLike): { inner: ZodLike; description?: string; optional: boolean } {
  let cur = s;
  let description = descriptionOf(s);
  let optional = false;
  for (;;) {
    const def = cur._zod.def;
    if (wrappers.has(def.type) && isZod(def.innerType)) {
      if (def.type === "optional" || def.type === "default" || def.type === "prefault") optional = true;
      cur = def.innerType;
    } else if (def.type === "pipe" && isZod(def.in)) {
      cur = def.in;
    } else if (def.type === "lazy" && typeof def.getter === "function") {
      cur = (def.getter as () => ZodLike)();
    } else break;
    description ??= descriptionOf(cur);
  }
  return { inner: cur, ...(description !== undefined ? { description } : {}), optional };
}

interface Where {
  kind: string;
  path: string[];
  /** Name of the definition whose property this is, for doc lookup. */
  owner?: string;
  field?: string;
  /** A list element: the list's extensions belong to the list, not to its items. */
  item?: boolean;
}

/** Registers `s` as the definition `name` (once) and returns a $ref to it. */
export function defineNamed(ctx: WalkContext, name: string, s: ZodLike, where: Where): OpenAPISchema {
  if (!ctx.defs.has(name)) {
    ctx.defs.set(name, {}); // placeholder first: breaks cycles
    // metav1.FieldsV1's OpenAPISchemaType: an object whose members the schema does not describe.
    const body = name === fieldsV1 ? { type: "object" } : convertInner(ctx, unwrap(s).inner, where, name);
    const doc = ctx.docs?.[name]?.[""];
    if (doc && body.description === undefined) body.description = doc.description;
    ctx.defs.set(name, body);
  }
  return { $ref: refPrefix + name };
}

const meta = "io.k8s.apimachinery.pkg.apis.meta.v1.";
const fieldsV1 = `${meta}FieldsV1`;

/** Well-known nested types zod cannot name for us (schemas declared locally in several modules). */
function hintedName(where: Where, s: ZodLike): string | undefined {
  const p = where.path.join(".");
  const shape = s._zod.def.shape as Record<string, unknown> | undefined;
  if (p === "metadata") return shape && "continue" in shape ? `${meta}ListMeta` : `${meta}ObjectMeta`;
  if (p === "metadata.ownerReferences") return `${meta}OwnerReference`;
  if (p === "metadata.managedFields") return `${meta}ManagedFieldsEntry`;
  if (p === "metadata.managedFields.fieldsV1") return fieldsV1;
  if (p === "status.conditions" && shape && "lastTransitionTime" in shape && "observedGeneration" in shape) return `${meta}Condition`;
  return undefined;
}

/** Converts a (possibly wrapped) schema at `where` into a property schema. */
export function convert(ctx: WalkContext, s: ZodLike, where: Where): OpenAPISchema {
  const { inner, description } = unwrap(s);
  const doc = where.owner !== undefined && where.field !== undefined ? ctx.docs?.[where.owner]?.[where.field] : undefined;
  // IntOrString is a union in zod and a named string format in Kubernetes; never name it by its export.
  const named =
    inner._zod.def.type === "union"
      ? undefined
      : (ctx.names.get(inner) ?? (["object", "record"].includes(inner._zod.def.type) ? hintedName(where, inner) : undefined));
  let out: OpenAPISchema;
  if (named !== undefined) {
    const ref = defineNamed(ctx, named, inner, { kind: where.kind, path: where.path });
    out = (description ?? doc) ? { allOf: [ref] } : ref;
  } else {
    out = convertInner(ctx, inner, where, undefined);
  }
  const text = description ?? doc?.description;
  // A $ref's siblings are ignored by OpenAPI v3 readers: wrap it in allOf as kube-openapi does.
  if (text !== undefined && typeof out.$ref === "string") out = { allOf: [{ $ref: out.$ref }] };
  if (text !== undefined) out.description = text;
  if (doc?.enum && out.type === "string" && out.enum === undefined) out.enum = [...doc.enum];
  return where.item === true ? out : { ...out, ...extensions(where) };
}

function extensions(where: Where): OpenAPISchema {
  const m = lookupFieldMeta(where.kind, where.path);
  if (m === undefined) return {};
  const out: OpenAPISchema = {};
  if (m.listType !== undefined) out["x-kubernetes-list-type"] = m.listType;
  if (m.listMapKeys !== undefined) out["x-kubernetes-list-map-keys"] = [...m.listMapKeys];
  if (m.mapType !== undefined) out["x-kubernetes-map-type"] = m.mapType;
  if (m.patchMergeKey !== undefined) out["x-kubernetes-patch-merge-key"] = m.patchMergeKey;
  if (m.patchStrategy !== undefined) out["x-kubernetes-patch-strategy"] = m.patchStrategy;
  return out;
}

function convertInner(ctx: WalkContext, s: ZodLike, where: Where, defName: string | undefined): OpenAPISchema {
  const def = s._zod.def;
  const bag = s._zod.bag ?? {};
  switch (def.type) {
    case "string":
      return bag.format === "datetime" ? { type: "string", format: "date-time" } : { type: "string" };
    case "number":
      return typeof bag.format === "string" && /int/.test(bag.format)
        ? { type: "integer", format: bag.format === "int64" ? "int64" : "int32" }
        : { type: "number", format: "double" };
    case "bigint":
      return { type: "integer", format: "int64" };
    case "boolean":
      return { type: "boolean" };
    case "date":
      return { type: "string", format: "date-time" };
    case "enum":
      return { type: "string", enum: Object.values(def.entries as Record<string, string>) };
    case "literal": {
      const values = def.values as unknown[];
      return { type: typeof values[0] === "number" ? "integer" : typeof values[0] === "boolean" ? "boolean" : "string" };
    }
    case "array":
      return {
        type: "array",
        items: isZod(def.element) ? convert(ctx, def.element, { kind: where.kind, path: where.path, item: true }) : {},
      };
    case "record":
      return {
        type: "object",
        additionalProperties: isZod(def.valueType) ? convert(ctx, def.valueType, { kind: where.kind, path: [...where.path, "*"] }) : {},
      };
    case "union":
      return union(ctx, def.options as ZodLike[]);
    case "object":
      return object(ctx, def.shape as Record<string, ZodLike>, where, defName);
    default:
      // any, unknown, custom, transform...: free-form, as Go's runtime.RawExtension / interface{} are.
      return { "x-kubernetes-preserve-unknown-fields": true };
  }
}

function union(ctx: WalkContext, options: ZodLike[]): OpenAPISchema {
  const types = new Set(options.map((o) => unwrap(o).inner._zod.def.type));
  if (types.has("number") && types.has("string") && types.size === 2) {
    ctx.defs.set(intOrString, {
      type: "string",
      format: "int-or-string",
      description:
        "IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.",
    });
    return { $ref: refPrefix + intOrString };
  }
  const enums = options.map((o) => unwrap(o).inner._zod.def).filter((d) => d.type === "literal");
  if (enums.length === options.length) return { type: "string", enum: enums.flatMap((d) => d.values as unknown[]) };
  return { "x-kubernetes-preserve-unknown-fields": true };
}

function object(ctx: WalkContext, shape: Record<string, ZodLike>, where: Where, defName: string | undefined): OpenAPISchema {
  const properties: Record<string, OpenAPISchema> = {};
  const required: string[] = [];
  for (const [k, v] of Object.entries(shape)) {
    if (!isZod(v)) continue;
    properties[k] = convert(ctx, v, {
      kind: where.kind,
      path: [...where.path, k],
      ...(defName !== undefined ? { owner: defName, field: k } : {}),
    });
    const forced = defName !== undefined && ctx.docs?.[defName]?.[k]?.required === true;
    if (forced || (!unwrap(v).optional && v._zod.optin !== "optional")) required.push(k);
  }
  const out: OpenAPISchema = { type: "object", properties };
  if (required.length > 0) out.required = required.sort();
  return out;
}

/** Every built-in field doc, by definition name. */
export const defaultDocs: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>> = {
  ...metaDocs,
  ...serviceDocs,
  ...configMapDocs,
  ...secretDocs,
  ...networkingDocs,
  ...rbacDocs,
};
export type { ZodLike };
