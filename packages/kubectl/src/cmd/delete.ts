/**
 * `delete TYPE NAME...`, `delete TYPE/NAME...` and `delete -f FILE`: DELETE
 * with the propagationPolicy of --cascade (background by default), `KIND "name" deleted` per object,
 * NotFound reported (or skipped with --ignore-not-found), and, as kubectl's
 * default --wait=true, waiting until objects held by finalizers are gone.
 */
import { APIError, CLIError } from "./errors.ts";
import { failureOf, reportFailures, type Failure } from "./failures.ts";
import { effectiveNamespace, type Context } from "./io.ts";
import { isFailure, readManifests, resolveTarget, type Target } from "./manifest.ts";
import { findResource, kindName, resourcePath } from "./resources.ts";

const noResourcesText = `error: You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

/**
 * kubectl's GetCascadingStrategy: background (the default), foreground or orphan; the deprecated
 * booleans mean background (true) and orphan (false).
 */
export function cascadingStrategy(flag: string | undefined): "Background" | "Foreground" | "Orphan" {
  switch (flag ?? "background") {
    case "background":
      return "Background";
    case "foreground":
      return "Foreground";
    case "orphan":
      return "Orphan";
  }
  // strconv.ParseBool's spellings.
  if (["1", "t", "T", "true", "TRUE", "True"].includes(flag!)) return "Background";
  if (["0", "f", "F", "false", "FALSE", "False"].includes(flag!)) return "Orphan";
  throw new CLIError(`error: invalid cascade value (${flag}). Must be "background", "foreground", or "orphan"`);
}

const deleteOptions = (propagationPolicy: string) => ({
  contentType: "application/json",
  data: JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", propagationPolicy }),
});

/** The objects named on the command line. */
function argTargets(ctx: Context): Target[] {
  const pos = ctx.args.positional;
  const [first, ...rest] = pos;
  if (first === undefined) throw new CLIError(noResourcesText);
  const pairs: [string, string][] = first.includes("/")
    ? pos.map((p) => [p.slice(0, p.indexOf("/")), p.slice(p.indexOf("/") + 1)])
    : rest.map((n) => [first, n]);
  if (!first.includes("/")) {
    if (findResource(first) === undefined) throw new CLIError(`error: the server doesn't have a resource type "${first}"`);
    if (rest.length === 0) throw new CLIError("error: resource(s) were provided, but no name was specified");
  }
  if (ctx.args.allNamespaces) throw new CLIError("error: a resource cannot be retrieved by name across all namespaces");
  return pairs.map(([type, name]) => {
    const resource = findResource(type);
    if (resource === undefined) throw new CLIError(`error: the server doesn't have a resource type "${type}"`);
    return { resource, namespace: resource.namespaced ? effectiveNamespace(ctx) : undefined, name };
  });
}

const notFound = (err: unknown): boolean => err instanceof APIError && err.status?.reason === "NotFound";

/** Polls until the object is gone (kubectl watches; polling is simpler and equivalent for the output). */
async function waitGone(ctx: Context, t: Target): Promise<void> {
  for (;;) {
    if (ctx.io.signal?.aborted === true) return;
    try {
      await ctx.client.get(resourcePath(t.resource, t.namespace, t.name));
    } catch (err) {
      if (notFound(err)) return;
      throw err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs `delete`; returns the exit code. */
export async function runDelete(ctx: Context): Promise<number> {
  const options = deleteOptions(cascadingStrategy(ctx.args.cascade));
  const failures: Failure[] = [];
  // kubectl reports manifest objects of unknown kinds after the delete errors, never with "error: ".
  const unmapped: Failure[] = [];
  const items: { target: Target; source?: string }[] = [];
  if (ctx.args.filenames.length > 0) {
    if (ctx.args.positional.length > 0)
      throw new CLIError(
        "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
      );
    const objects = await readManifests(ctx, "delete");
    if (objects.length === 0) {
      ctx.io.stdout.write("No resources found\n");
      return 0;
    }
    for (const m of objects) {
      const t = resolveTarget(ctx, m);
      if (isFailure(t)) unmapped.push({ single: t.multi, multi: t.multi });
      else items.push({ target: t, source: m.source });
    }
  } else {
    for (const target of argTargets(ctx)) items.push({ target });
  }
  const pending: Target[] = [];
  for (const { target: t, source } of items) {
    try {
      const res = await ctx.client.request<{ kind?: string; metadata?: { deletionTimestamp?: string } }>(
        "DELETE",
        resourcePath(t.resource, t.namespace, t.name),
        options,
      );
      ctx.io.stdout.write(`${kindName(t.resource)} "${t.name}" deleted\n`);
      // A returned object (not a Status) is still there, held by finalizers.
      if (res.kind !== "Status" && res.metadata?.deletionTimestamp !== undefined) pending.push(t);
    } catch (err) {
      if (notFound(err) && ctx.args.ignoreNotFound) continue;
      failures.push(failureOf(err, source === undefined ? undefined : "deleting", source));
    }
  }
  if (ctx.args.wait) for (const t of pending) await waitGone(ctx, t);
  return reportFailures(ctx, [...failures, ...unmapped]);
}
