/**
 * `get -w` / `--watch-only`: list (unless --watch-only), then watch from the
 * list's resourceVersion and print one row per event, as kubectl's get.go
 * watch does: the same tabwriter for every flush (widths remembered), the
 * header once, DELETED events printed like any other row; -o json|yaml
 * print each object (YAML documents separated by `---`).
 */
import type { PartialObjectMetadata, Status, Table, WatchEvent } from "@servicenet/api";
import { sortKeys, toKubectlJSON } from "../printers/json.ts";
import { withoutManagedFields } from "../printers/managed-fields.ts";
import { TablePrinter } from "../printers/render.ts";
import { toKubectlYAML } from "../printers/yaml.ts";
import { tableAccept } from "./client.ts";
import { APIError, CLIError, statusErrorMessage } from "./errors.ts";
import { collectionPath, mergeTables } from "./get-request.ts";
import type { Context } from "./io.ts";
import type { Resource } from "./resources.ts";

interface ObjectPrinter {
  initial(list: PartialObjectMetadata[] | Table): void;
  event(obj: unknown): void;
}

function humanPrinter(ctx: Context, r: Resource): ObjectPrinter {
  const p = new TablePrinter({
    wide: ctx.args.output === "wide",
    withNamespace: ctx.args.allNamespaces && r.namespaced,
    noHeaders: ctx.args.noHeaders,
    showLabels: ctx.args.showLabels,
  });
  return {
    initial: (t) => void ctx.io.stdout.write(p.print(t as Table)),
    event: (t) => void ctx.io.stdout.write(p.print(t as Table)),
  };
}

function objectPrinter(ctx: Context): ObjectPrinter {
  let count = 0;
  const one = (o: unknown): void => {
    if (ctx.args.output === "json") ctx.io.stdout.write(toKubectlJSON(sortKeys(withoutManagedFields(o))));
    else ctx.io.stdout.write((count > 0 ? "---\n" : "") + toKubectlYAML(sortKeys(withoutManagedFields(o))));
    count++;
  };
  return { initial: (items) => (items as PartialObjectMetadata[]).forEach(one), event: one };
}

function withQuery(path: string, params: Record<string, string>): string {
  const q = new URLSearchParams(params).toString();
  return path + (path.includes("?") ? "&" : "?") + q;
}

/** Runs the watch; returns the exit code when the server ends the stream or the signal aborts it. */
export async function runWatch(ctx: Context, r: Resource, ns: string | undefined, names: string[]): Promise<number> {
  const name = names[0];
  const human = ctx.args.output !== "json" && ctx.args.output !== "yaml";
  const accept = human ? tableAccept : "application/json";
  const printer = human ? humanPrinter(ctx, r) : objectPrinter(ctx);
  if (names.length > 1) {
    // kubectl 1.33 prints the named objects, then refuses to watch them.
    if (!ctx.args.watchOnly) {
      const got: unknown[] = [];
      for (const n of names) got.push(await ctx.client.get(collectionPath(ctx, r, ns, n), accept));
      printer.initial(human ? (mergeTables(got as Table[]) as Table) : (got as PartialObjectMetadata[]));
    }
    throw new CLIError("error: you may only watch a single resource or type of resource at a time");
  }

  const got = await ctx.client.get<Table & { items?: PartialObjectMetadata[]; metadata?: { resourceVersion?: string } }>(
    collectionPath(ctx, r, ns, name),
    accept,
  );
  if (!ctx.args.watchOnly) printer.initial(human ? got : name !== undefined ? [got] : (got.items ?? []));
  const rv = got.metadata?.resourceVersion ?? "";
  const params: Record<string, string> = { watch: "true", resourceVersion: rv };
  if (name !== undefined) params.fieldSelector = `metadata.name=${name}`;
  let failure: CLIError | undefined;
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  ctx.io.signal?.addEventListener("abort", stop, { once: true });
  if (ctx.io.signal?.aborted === true) return 0;
  try {
    await ctx.client.watch(
      withQuery(collectionPath(ctx, r, ns), params),
      accept,
      (e: WatchEvent<unknown>) => {
        if (e.type === "BOOKMARK") return;
        if (e.type === "ERROR") {
          const st = e.object as Status;
          failure = new APIError(statusErrorMessage(st.code ?? 500, st, ""), st.code ?? 500, st);
          controller.abort();
          return;
        }
        printer.event(e.object);
      },
      controller.signal,
    );
  } finally {
    ctx.io.signal?.removeEventListener("abort", stop);
  }
  if (failure !== undefined) throw failure;
  return 0;
}
