/**
 * Reading `-f FILE|-` as kubectl's resource builder does: JSON or YAML
 * (several `---` documents), `List` kinds flattened into their items, empty
 * documents skipped. Each object remembers its source ("STDIN" for `-`) for
 * kubectl's `error when creating "SOURCE"` wording.
 */
import type { PartialObjectMetadata } from "@servicenet/api";
import { readFileSync, statSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { CLIError } from "./errors.ts";
import { plainFailure, type Failure } from "./failures.ts";
import { effectiveNamespace, type Context } from "./io.ts";
import { resourceForKind, type Resource } from "./resources.ts";

/** One object of a manifest and where it came from. */
export interface ManifestObject {
  object: PartialObjectMetadata & Record<string, unknown>;
  source: string;
}

/** Any `*List` with items is a list (meta.IsListType), not only `v1 List`. */
function isList(o: Record<string, unknown>): boolean {
  return typeof o.kind === "string" && o.kind.endsWith("List") && Array.isArray(o.items);
}

function flatten(value: unknown, source: string, out: ManifestObject[]): void {
  if (value === null || value === undefined) return;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new CLIError(
      `error: error parsing ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(value) ? "array" : typeof value} into Go value of type map[string]interface {}`,
    );
  }
  const o = value as Record<string, unknown>;
  if (isList(o)) {
    for (const item of o.items as unknown[]) flatten(item, source, out);
    return;
  }
  if (typeof o.kind !== "string" || o.kind === "")
    throw new CLIError(`error: error validating "${source}": error validating data: kind not set`);
  if (typeof o.apiVersion !== "string" || o.apiVersion === "")
    throw new CLIError(`error: error validating "${source}": error validating data: apiVersion not set`);
  out.push({ object: o, source });
}

/** Parses one file's text: YAML 1.1 as sigs.k8s.io/yaml reads it (JSON is YAML). */
export function parseManifest(text: string, source: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const doc of parseAllDocuments(text, { version: "1.1" })) {
    const err = doc.errors[0];
    if (err !== undefined) {
      const line = err.linePos?.[0].line;
      const msg = err.message.split("\n")[0] ?? "";
      throw new CLIError(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: ${line === undefined ? "" : `line ${line}: `}${msg}`,
      );
    }
    flatten(doc.toJS({ maxAliasCount: 100 }), source, out);
  }
  return out;
}

async function readSource(ctx: Context, name: string): Promise<{ text: string; source: string }> {
  if (name === "-") return { text: ctx.io.stdin === undefined ? "" : await ctx.io.stdin(), source: "STDIN" };
  try {
    if (statSync(name).isDirectory()) throw new CLIError(`error: reading directories is not supported: "${name}"`);
    return { text: readFileSync(name, "utf8"), source: name };
  } catch (err) {
    if (err instanceof CLIError) throw err;
    throw new CLIError(`error: the path "${name}" does not exist`);
  }
}

/** Every object of every `-f` argument, in order; `verb` names the command in "no objects passed to VERB". */
export async function readManifests(ctx: Context, verb: string): Promise<ManifestObject[]> {
  const out: ManifestObject[] = [];
  for (const name of ctx.args.filenames) {
    const { text, source } = await readSource(ctx, name);
    out.push(...parseManifest(text, source));
  }
  if (out.length === 0 && verb !== "delete") throw new CLIError(`error: no objects passed to ${verb}`);
  return out;
}

/** Where a manifest object lives on the server. */
export interface Target {
  resource: Resource;
  /** Undefined for cluster-scoped resources. */
  namespace: string | undefined;
  name: string;
}

/**
 * Maps a manifest object to its resource and namespace. An unknown kind is a
 * per-object failure (kubectl's RESTMapper error); an object namespace that
 * contradicts an explicit `-n` aborts the command, as in kubectl.
 */
export function resolveTarget(ctx: Context, m: ManifestObject): Target | Failure {
  const { object, source } = m;
  const apiVersion = String(object.apiVersion ?? "");
  const kind = String(object.kind ?? "");
  const objNS = object.metadata?.namespace ?? "";
  const name = object.metadata?.name ?? "";
  const resource = resourceForKind(apiVersion, kind);
  if (resource === undefined) {
    const version = apiVersion.includes("/") ? apiVersion.slice(apiVersion.indexOf("/") + 1) : apiVersion;
    const group = apiVersion.includes("/") ? `${apiVersion.slice(0, apiVersion.indexOf("/"))}/` : "";
    return plainFailure(
      `resource mapping not found for name: "${name}" namespace: "${objNS}" from "${source}": no matches for kind "${kind}" in version "${group}${version}"\nensure CRDs are installed first`,
    );
  }
  if (!resource.namespaced) return { resource, namespace: undefined, name };
  const flag = ctx.args.namespace;
  if (flag !== undefined && objNS !== "" && objNS !== flag) {
    throw new CLIError(
      `error: the namespace from the provided object "${objNS}" does not match the namespace "${flag}". You must pass '--namespace=${objNS}' to perform this operation.`,
    );
  }
  return { resource, namespace: objNS !== "" ? objNS : effectiveNamespace(ctx), name };
}

/** True for the Failure arm of resolveTarget. */
export function isFailure(t: Target | Failure): t is Failure {
  return (t as Failure).single !== undefined;
}
