/**
 * `create -f` (POST, field manager kubectl-create) and `apply -f` as
 * server-side apply (PATCH application/apply-patch+yaml, field manager
 * `kubectl` unless --field-manager, force with --force-conflicts). Objects
 * are sent one by one; failures are collected and reported at the end as
 * kubectl does, with exit code 1.
 */
import type { PartialObjectMetadata } from "@servicenet/api";
import { APIError, CLIError } from "./errors.ts";
import { failureOf, plainFailure, reportFailures, type Failure } from "./failures.ts";
import type { Context } from "./io.ts";
import { isFailure, readManifests, resolveTarget, type Target } from "./manifest.ts";
import { kindName, resourcePath } from "./resources.ts";

/** What kubectl appends to an apply conflict (apply.go's conflict hint). */
export const applyConflictHint = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

const jsonBody = (o: unknown) => ({ contentType: "application/json", data: JSON.stringify(o) });

function needFiles(ctx: Context): void {
  if (ctx.args.filenames.length === 0) throw new CLIError("error: must specify one of -f and -k");
  if (ctx.args.positional.length > 0) throw new CLIError(`error: Unexpected args: [${ctx.args.positional.join(" ")}]`);
}

/** Runs `create -f`; returns the exit code. */
export async function runCreate(ctx: Context): Promise<number> {
  needFiles(ctx);
  const failures: Failure[] = [];
  for (const m of await readManifests(ctx, "create")) {
    const t = resolveTarget(ctx, m);
    if (isFailure(t)) {
      failures.push(t);
      continue;
    }
    const body = t.namespace === undefined ? m.object : { ...m.object, metadata: { ...m.object.metadata, namespace: t.namespace } };
    try {
      const path = `${resourcePath(t.resource, t.namespace)}?fieldManager=kubectl-create&fieldValidation=Strict`;
      const created = await ctx.client.request<PartialObjectMetadata>("POST", path, jsonBody(body));
      ctx.io.stdout.write(`${kindName(t.resource)}/${created.metadata?.name ?? t.name} created\n`);
    } catch (err) {
      failures.push(failureOf(err, "creating", m.source));
    }
  }
  return reportFailures(ctx, failures);
}

function conflictFailure(err: unknown): Failure | undefined {
  if (!(err instanceof APIError) || err.status?.reason !== "Conflict") return undefined;
  const text = `${err.status.message ?? ""}\n${applyConflictHint}`;
  return { single: `error: ${text}`, multi: text };
}

/** Runs `apply -f` (always server-side); returns the exit code. */
export async function runApply(ctx: Context): Promise<number> {
  needFiles(ctx);
  const manager = ctx.args.fieldManager ?? "kubectl";
  const objects = await readManifests(ctx, "apply");
  // kubectl resolves every object first, so mapping errors come before apply errors.
  const resolved: { target: Target; object: Record<string, unknown> }[] = [];
  const failures: Failure[] = [];
  for (const m of objects) {
    const t = resolveTarget(ctx, m);
    if (isFailure(t)) failures.push(t);
    else resolved.push({ target: t, object: m.object });
  }
  for (const { target: t, object } of resolved) {
    if (t.name === "") {
      failures.push(plainFailure("resource name may not be empty"));
      continue;
    }
    const meta = (object.metadata ?? {}) as Record<string, unknown>;
    const body = t.namespace === undefined ? object : { ...object, metadata: { ...meta, namespace: t.namespace } };
    const query = `fieldManager=${encodeURIComponent(manager)}&fieldValidation=Strict&force=${ctx.args.forceConflicts ? "true" : "false"}`;
    try {
      await ctx.client.request("PATCH", `${resourcePath(t.resource, t.namespace, t.name)}?${query}`, {
        contentType: "application/apply-patch+yaml",
        data: JSON.stringify(body),
      });
      ctx.io.stdout.write(`${kindName(t.resource)}/${t.name} serverside-applied\n`);
    } catch (err) {
      failures.push(conflictFailure(err) ?? failureOf(err));
    }
  }
  return reportFailures(ctx, failures);
}
