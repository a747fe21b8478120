/**
 * `get KIND [NAME...]`: the human-readable forms ask the server for a
 * meta.k8s.io/v1 Table and print it with renderTable (kubectl's server-side
 * printing); -o json|yaml prints the objects themselves.
 */
import type { PartialObjectMetadata, Table } from "@servicenet/api";
import { sortKeys, toKubectlJSON } from "../printers/json.ts";
import { withoutManagedFields } from "../printers/managed-fields.ts";
import { renderTable } from "../printers/render.ts";
import { toKubectlYAML } from "../printers/yaml.ts";
import { tableAccept } from "./client.ts";
import { APIError, CLIError } from "./errors.ts";
import { failureOf, reportFailures, type Failure } from "./failures.ts";
import { collectionPath, mergeTables } from "./get-request.ts";
import { effectiveNamespace, type Context } from "./io.ts";
import { findResource, kindName, type Resource } from "./resources.ts";
import { runWatch } from "./watch.ts";

const outputs = new Set(["", "wide", "json", "yaml", "name"]);

function printObjects(ctx: Context, objects: PartialObjectMetadata[], single: boolean): void {
  // Several objects (or a list request) become a v1 List, as kubectl prints them.
  const items = objects.map(withoutManagedFields);
  const list = { apiVersion: "v1", items, kind: "List", metadata: { resourceVersion: "" } };
  const value = sortKeys(single && items.length === 1 ? items[0] : list);
  if (ctx.args.output === "json") ctx.io.stdout.write(toKubectlJSON(value));
  else ctx.io.stdout.write(toKubectlYAML(value));
}

/** "No resources found in NS namespace." when every requested type is namespaced; kubectl writes it to stderr. */
function noResources(ctx: Context, types: Resource[], ns: string | undefined): void {
  const namespaced = types.every((r) => r.namespaced) && !ctx.args.allNamespaces && ns !== undefined;
  ctx.io.stderr.write(namespaced ? `No resources found in ${ns} namespace.\n` : "No resources found\n");
}

/** TYPE or TYPE,TYPE,... as kubectl accepts it; the first unknown type fails the command. */
function parseTypes(arg: string): Resource[] {
  const out: Resource[] = [];
  for (const t of arg.split(",")) {
    const r = findResource(t);
    if (r === undefined) throw new CLIError(`error: the server doesn't have a resource type "${t}"`);
    if (!out.includes(r)) out.push(r); // "svc,services" is one type
  }
  return out;
}

/** Fetches `path`; an API failure is recorded (kubectl's get continues with the next name or type). */
async function fetchOrRecord<T>(ctx: Context, path: string, accept: string, failures: Failure[]): Promise<T | undefined> {
  try {
    return await ctx.client.get<T>(path, accept);
  } catch (err) {
    if (!(err instanceof APIError) || err.status === undefined) throw err;
    failures.push(failureOf(err));
    return undefined;
  }
}

/** Runs `get`; returns the exit code. */
export async function runGet(ctx: Context): Promise<number> {
  const [kindArg, ...names] = ctx.args.positional;
  if (kindArg === undefined)
    throw new CLIError(`error: You must specify the type of resource to get. Use "servicenet-kubectl get --help" for usage.`);
  const types = parseTypes(kindArg);
  const output = ctx.args.output ?? "";
  if (!outputs.has(output))
    throw new CLIError(`error: unable to match a printer suitable for the output format "${output}", allowed formats are: json,wide,yaml`);
  if (ctx.args.allNamespaces && names.length > 0) throw new CLIError("error: a resource cannot be retrieved by name across all namespaces");
  const nsOf = (r: Resource) => (!r.namespaced || ctx.args.allNamespaces ? undefined : effectiveNamespace(ctx));
  const first = types[0] as Resource;
  if (ctx.args.watch || ctx.args.watchOnly) {
    if (types.length > 1) throw new CLIError("error: you may only specify a single resource type");
    return runWatch(ctx, first, nsOf(first), names);
  }
  const targets = names.length > 0 ? names : [undefined];
  const failures: Failure[] = [];

  if (output === "json" || output === "yaml" || output === "name") {
    const objects: { r: Resource; o: PartialObjectMetadata }[] = [];
    for (const r of types) {
      for (const name of targets) {
        const got = await fetchOrRecord<PartialObjectMetadata & { items?: PartialObjectMetadata[] }>(
          ctx,
          collectionPath(ctx, r, nsOf(r), name),
          "application/json",
          failures,
        );
        if (got !== undefined) objects.push(...(name !== undefined ? [got] : (got.items ?? [])).map((o) => ({ r, o })));
      }
    }
    // -o name: kubectl's NamePrinter, "service/web" per object.
    if (output === "name") for (const { r, o } of objects) ctx.io.stdout.write(`${kindName(r)}/${o.metadata?.name ?? ""}\n`);
    else if (names.length === 0 || objects.length > 0)
      printObjects(
        ctx,
        objects.map(({ o }) => o),
        names.length === 1 && types.length === 1,
      );
    return reportFailures(ctx, failures);
  }

  const perType: { r: Resource; table: Table }[] = [];
  for (const r of types) {
    const tables: Table[] = [];
    for (const name of targets) {
      const t = await fetchOrRecord<Table>(ctx, collectionPath(ctx, r, nsOf(r), name), tableAccept, failures);
      if (t !== undefined) tables.push(t);
    }
    const merged = mergeTables(tables);
    if (merged !== undefined) perType.push({ r, table: merged });
  }
  const printed = perType.filter(({ table }) => table.rows.length > 0);
  if (printed.length === 0 && failures.length === 0) {
    noResources(ctx, perType.length > 0 ? perType.map(({ r }) => r) : types, nsOf(first));
    return 0;
  }
  // kubectl 1.33 prefixes names with their kind when the results (empty lists too) span several
  // kinds; with -A a cluster-scoped kind after a namespaced one keeps an (empty) NAMESPACE column.
  const mixed = perType.length > 1;
  const afterNamespaced = (r: Resource) =>
    perType
      .slice(
        0,
        perType.findIndex((p) => p.r === r),
      )
      .some((p) => p.r.namespaced);
  const out = printed.map(({ r, table }) =>
    renderTable(table, {
      wide: output === "wide",
      withNamespace: ctx.args.allNamespaces && (r.namespaced || afterNamespaced(r)),
      noHeaders: ctx.args.noHeaders,
      showLabels: ctx.args.showLabels,
      ...(mixed ? { withKind: kindName(r) } : {}),
    }),
  );
  ctx.io.stdout.write(out.join(ctx.args.noHeaders ? "" : "\n"));
  return reportFailures(ctx, failures);
}
