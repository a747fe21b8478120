/**
 * How kubectl reports the errors of a multi-object command (create/apply/
 * delete with ContinueOnError): one error is printed by checkErr's special
 * cases (Invalid as "The Kind "name" is invalid: ..."), several are printed
 * one per line in StandardErrorMessage form. Each failure carries both texts.
 */
import type { Status } from "@servicenet/api";
import { APIError, CLIError } from "./errors.ts";
import type { Context } from "./io.ts";
import { statusErrorMessage } from "./errors.ts";

/** One failed object: the text when it is the only error, and when there are several. */
export interface Failure {
  single: string;
  multi: string;
}

/** StandardErrorMessage for an API Status inside an aggregate. */
function standardMessage(status: Status): string {
  const reason = status.reason ?? "";
  return reason === "" ? `Error from server: ${status.message ?? ""}` : `Error from server (${reason}): ${status.message ?? ""}`;
}

/**
 * A failure from an error; `verb`/`source` add cmdutil.AddSourceToErr's
 * `error when VERB "SOURCE": ` to the Status message (create and delete -f do, apply does not).
 */
export function failureOf(err: unknown, verb?: string, source?: string): Failure {
  if (err instanceof APIError && err.status !== undefined) {
    const prefix = verb !== undefined && source !== undefined ? `error when ${verb} "${source}": ` : "";
    const status: Status = { ...err.status, message: prefix + (err.status.message ?? "") };
    return { single: statusErrorMessage(err.httpCode, status, ""), multi: standardMessage(status) };
  }
  if (err instanceof CLIError) return { single: err.message, multi: err.message.replace(/^error: /, "") };
  const msg = err instanceof Error ? err.message : String(err);
  return { single: `error: ${msg}`, multi: msg };
}

/** A plain error ("error: TEXT" alone, "TEXT" among others). */
export function plainFailure(text: string): Failure {
  return { single: `error: ${text}`, multi: text };
}

/** Writes the failures to stderr as kubectl does; returns the exit code (1 if any failed). */
export function reportFailures(ctx: Context, failures: readonly Failure[]): number {
  if (failures.length === 0) return 0;
  const only = failures.length === 1 ? failures[0] : undefined;
  const lines = only !== undefined ? [only.single] : failures.map((f) => f.multi);
  for (const l of lines) ctx.io.stderr.write(l.endsWith("\n") ? l : l + "\n");
  return 1;
}
