/**
 * `describe`: kubectl/pkg/cmd/describe/describe.go Run with the resource Builder's argument
 * forms (TYPE[,TYPE] [NAME...], TYPE/NAME..., -l, -A), ContinueOnError (found objects are
 * printed, the errors reported after them), and DescribeMatchingResources: when exactly two
 * arguments were given and the only error is NotFound, every object of the first argument
 * whose name starts with the second is described instead.
 */
import type { PartialObjectMetadata } from "@servicenet/api";
import { CLIError, APIError } from "./errors.ts";
import { failureOf, reportFailures, type Failure } from "./failures.ts";
import { collectionPath } from "./get-request.ts";
import { effectiveNamespace, type Context } from "./io.ts";
import { describeObject } from "./describe-object.ts";
import { findResource, resourcePath, type Resource } from "./resources.ts";

interface List {
  items?: PartialObjectMetadata[];
}

/** What the arguments ask for: per type, either names or the whole (selected) collection. */
interface Request {
  type: Resource;
  name?: string;
}

const describable = new Set([
  "services",
  "servicecidrs",
  "ipaddresses",
  "ingresses",
  "ingressclasses",
  "networkpolicies",
  "endpointslices",
  "endpoints",
  "roles",
  "clusterroles",
  "rolebindings",
  "clusterrolebindings",
  "poddisruptionbudgets",
]);

function resolveType(t: string): Resource {
  const r = findResource(t);
  if (r === undefined || !describable.has(r.name)) throw new CLIError(`error: the server doesn't have a resource type "${t}"`);
  return r;
}

/** resource.Builder.ResourceTypeOrNameArgs: TYPE/NAME pairs, or TYPE[,TYPE...] followed by names. */
export function parseDescribeArgs(args: readonly string[]): Request[] {
  const slashed = args.filter((a) => a.includes("/")).length;
  if (slashed > 0 && slashed !== args.length)
    throw new CLIError(
      "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form " +
        "(e.g. 'servicenet-kubectl get resource/<resource_name>' instead of 'servicenet-kubectl get resource resource/<resource_name>'",
    );
  if (slashed > 0) {
    return args.map((a) => {
      const i = a.indexOf("/");
      const name = a.slice(i + 1);
      if (name === "") throw new CLIError("error: arguments in resource/name form must have a single resource and name");
      return { type: resolveType(a.slice(0, i)), name };
    });
  }
  const [typeArg = "", ...names] = args;
  const types: Resource[] = [];
  for (const t of typeArg.split(",")) {
    const r = resolveType(t);
    if (!types.includes(r)) types.push(r);
  }
  if (names.length === 0) return types.map((type) => ({ type }));
  return types.flatMap((type) => names.map((name) => ({ type, name })));
}

async function fetchRequest(ctx: Context, req: Request): Promise<PartialObjectMetadata[]> {
  const ns = req.type.namespaced && !(ctx.args.allNamespaces && req.name === undefined) ? effectiveNamespace(ctx) : undefined;
  if (req.name !== undefined) return [await ctx.client.get<PartialObjectMetadata>(resourcePath(req.type, ns, req.name))];
  return (await ctx.client.get<List>(collectionPath(ctx, req.type, ns))).items ?? [];
}

function recordable(err: unknown): boolean {
  return err instanceof APIError && err.status !== undefined;
}

/** Runs `describe`; returns the exit code. */
export async function runDescribe(ctx: Context): Promise<number> {
  const args = ctx.args.positional;
  if (args.length === 0)
    throw new CLIError(
      `error: You must specify the type of resource to describe. Use "servicenet-kubectl api-resources" for a complete list of supported resources.`,
    );
  const requests = parseDescribeArgs(args);
  const named = requests.some((r) => r.name !== undefined);
  if (named && (ctx.args.selector ?? "") !== "") throw new CLIError("error: name cannot be provided when a selector is specified");
  if (named && ctx.args.allNamespaces) throw new CLIError("error: a resource cannot be retrieved by name across all namespaces");

  const found: { type: Resource; obj: PartialObjectMetadata }[] = [];
  const errors: unknown[] = [];
  for (const req of requests) {
    try {
      for (const obj of await fetchRequest(ctx, req)) found.push({ type: req.type, obj });
    } catch (err) {
      if (!recordable(err)) throw err;
      errors.push(err);
    }
  }
  // IsNotFound on the reduced aggregate: true only when the single error is a NotFound.
  const only = errors.length === 1 ? errors[0] : undefined;
  if (only instanceof APIError && only.status?.reason === "NotFound" && args.length === 2)
    return describeMatching(ctx, args[0] ?? "", args[1] ?? "", only);

  const failures: Failure[] = errors.map((e) => failureOf(e));
  let first = true;
  for (const { type, obj } of found) {
    const s = await describeObject(ctx, type, obj);
    ctx.io.stdout.write(first ? s : `\n\n${s}`);
    first = false;
  }
  if (found.length === 0 && failures.length === 0) {
    ctx.io.stderr.write(ctx.args.allNamespaces ? "No resources found\n" : `No resources found in ${effectiveNamespace(ctx)} namespace.\n`);
  }
  return reportFailures(ctx, failures);
}

/**
 * DescribeMatchingResources: `resource` resolved on its own (no selector, the namespace
 * only), each object whose name has `prefix` described and followed by a newline; the
 * original NotFound when none matches.
 */
async function describeMatching(ctx: Context, resource: string, prefix: string, original: APIError): Promise<number> {
  let objects: { type: Resource; obj: PartialObjectMetadata }[];
  try {
    const [req] = parseDescribeArgs([resource]);
    if (req === undefined) throw original;
    const ns = req.type.namespaced ? effectiveNamespace(ctx) : undefined;
    const list =
      req.name !== undefined
        ? [await ctx.client.get<PartialObjectMetadata>(resourcePath(req.type, ns, req.name))]
        : ((await ctx.client.get<List>(resourcePath(req.type, ns))).items ?? []);
    objects = list.map((obj) => ({ type: req.type, obj }));
  } catch (err) {
    if (!recordable(err)) throw err;
    return reportFailures(ctx, [failureOf(err)]);
  }
  const matching = objects.filter(({ obj }) => (obj.metadata?.name ?? "").startsWith(prefix));
  if (matching.length === 0) return reportFailures(ctx, [failureOf(original)]);
  for (const { type, obj } of matching) ctx.io.stdout.write(`${await describeObject(ctx, type, obj)}\n`);
  return 0;
}
