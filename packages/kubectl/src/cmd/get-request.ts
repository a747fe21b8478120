/** What `get` and `get -w` request (kubectl get.go): the path with -l, and by-name Tables merged. */
import type { Table } from "@servicenet/api";
import { CLIError } from "./errors.ts";
import type { Context } from "./io.ts";
import { resourcePath, type Resource } from "./resources.ts";

/** The list (or object) path with -l applied to lists. */
export function collectionPath(ctx: Context, r: Resource, ns: string | undefined, name?: string): string {
  const path = resourcePath(r, ns, name);
  const sel = ctx.args.selector;
  return name === undefined && sel !== undefined && sel !== "" ? `${path}?labelSelector=${encodeURIComponent(sel)}` : path;
}

/** One table from several single-object tables (same kind, so the same columns). */
export function mergeTables(tables: Table[]): Table | undefined {
  const [first, ...rest] = tables;
  if (first === undefined) return undefined;
  if (first.kind !== "Table") throw new CLIError("error: the server did not return a Table for an as=Table request");
  return { ...first, rows: [...first.rows, ...rest.flatMap((t) => t.rows)] };
}
