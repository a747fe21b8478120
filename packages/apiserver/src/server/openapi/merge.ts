/**
 * Documents added to the built-in ones while the server runs (the apiextensions-apiserver's
 * OpenAPI controllers, pkg/controller/openapi and openapiv3): /openapi/v2 takes their paths and
 * definitions (builder.MergeSpecs), and each of their group versions gets its own /openapi/v3
 * document holding every definition its paths reach.
 */
import type { OpenAPIDocuments } from "./documents.ts";
import { reachable } from "./documents.ts";
import type { OpenAPISchema } from "./zod-walk.ts";

/** One group version's part of a document: paths and definitions, refs in the flavor's form. */
export interface OpenAPISpec {
  /** The /openapi/v3 key: `apis/<group>/<version>`. */
  gv: string;
  paths: Record<string, OpenAPISchema>;
  definitions: Record<string, OpenAPISchema>;
}

/** Where the documents of custom resources come from. */
export interface OpenAPISpecSource {
  /** Changes whenever the specs do (the CRDs' names and resourceVersions). */
  revision(): string;
  /** The specs of every served version, v2 or v3 form. */
  specs(v2: boolean): OpenAPISpec[];
}

const sortedKeys = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

/** The info of the documents the CRD builder makes (builder.go getOpenAPIConfig). */
const crdInfo = { title: "Kubernetes CRD Swagger", version: "v0.1.0" };

/** /openapi/v2: the built-in document with the specs' paths and definitions (builder.MergeSpecs). */
export function mergeOpenAPIV2Specs(base: OpenAPIDocuments, v2: readonly OpenAPISpec[]): OpenAPISchema {
  const b2 = base.v2 as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
  return {
    ...base.v2,
    paths: Object.assign({}, b2.paths, ...v2.map((s) => s.paths)) as Record<string, unknown>,
    definitions: sortedKeys(Object.assign({}, b2.definitions, ...v2.map((s) => s.definitions)) as Record<string, unknown>),
  };
}

/** The /openapi/v3 documents by group version, with the specs each custom group version was made from. */
export interface MergedV3 {
  docs: Map<string, OpenAPISchema>;
  specs: Map<string, readonly OpenAPISpec[]>;
}

const sameSpecs = (a: readonly OpenAPISpec[] | undefined, b: readonly OpenAPISpec[]): boolean =>
  a !== undefined && a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * The built-in v3 documents plus one per custom group version. A group version whose specs are the
 * very objects `prev` was made from keeps `prev`'s document (the same object), so only the group
 * versions a CRD change touched are rebuilt and rendered again (upstream's openapiv3 controller
 * updates one group version at a time, UpdateGroupVersionLazy).
 */
export function mergeOpenAPIV3Specs(base: OpenAPIDocuments, v3: readonly OpenAPISpec[], prev?: MergedV3): MergedV3 {
  const byGV = new Map<string, OpenAPISpec[]>();
  for (const s of v3) byGV.set(s.gv, [...(byGV.get(s.gv) ?? []), s]);
  const docs = new Map(base.v3);
  for (const [gv, specs] of byGV) {
    if (docs.has(gv)) continue; // a built-in group version is not replaced
    const kept = sameSpecs(prev?.specs.get(gv), specs) ? prev?.docs.get(gv) : undefined;
    docs.set(gv, kept ?? groupVersionDocument(base, specs));
  }
  const sorted = new Map([...docs].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { docs: sorted, specs: byGV };
}

/** The definition names each spec reaches, per base documents (a CRD's spec is built once per resourceVersion). */
const reachedBySpec = new WeakMap<OpenAPIDocuments, WeakMap<OpenAPISpec, readonly string[]>>();

/** The names of the definitions `spec`'s paths and definitions reach, its own and built-in ones. */
function reachedFrom(base: OpenAPIDocuments, spec: OpenAPISpec): readonly string[] {
  let bySpec = reachedBySpec.get(base);
  if (bySpec === undefined) reachedBySpec.set(base, (bySpec = new WeakMap()));
  let names = bySpec.get(spec);
  if (names === undefined) {
    const pool = { get: (n: string) => spec.definitions[n] ?? base.schemas.get(n) };
    names = [...reachable(pool, [spec.paths, ...Object.values(spec.definitions)])];
    bySpec.set(spec, names);
  }
  return names;
}

/** One custom group version's document: its paths, its definitions and the built-in ones they reach. */
function groupVersionDocument(base: OpenAPIDocuments, specs: readonly OpenAPISpec[]): OpenAPISchema {
  const own = new Map(Object.entries(Object.assign({}, ...specs.map((s) => s.definitions)) as Record<string, OpenAPISchema>));
  const paths = Object.assign({}, ...specs.map((s) => s.paths)) as Record<string, OpenAPISchema>;
  // A CRD's spec refers to its own definitions and built-in ones only, so the group version reaches
  // the union of what each spec reaches; that is kept per spec and not walked again.
  const names = [...new Set([...own.keys(), ...specs.flatMap((s) => reachedFrom(base, s))])].sort();
  return {
    openapi: "3.0.0",
    info: crdInfo,
    paths,
    components: { schemas: Object.fromEntries(names.map((n) => [n, own.get(n) ?? base.schemas.get(n)])) },
  };
}
