/**
 * Errors as kubectl prints them (kubectl/pkg/cmd/util/helpers.go checkErr and
 * StandardErrorMessage). Every CLI failure is a CLIError carrying the exact
 * stderr text and the exit code.
 */
import type { Status } from "@servicenet/api";

/** A failure whose message is already in kubectl's wording. */
export class CLIError extends Error {
  readonly code: number;
  constructor(message: string, code = 1) {
    super(message);
    this.name = "CLIError";
    this.code = code;
  }
}

/** A failed API call: the kubectl text plus the Status, so callers can re-word it (e.g. with a source file). */
export class APIError extends CLIError {
  readonly httpCode: number;
  readonly status: Status | undefined;
  constructor(message: string, httpCode: number, status: Status | undefined) {
    super(message);
    this.name = "APIError";
    this.httpCode = httpCode;
    this.status = status;
  }
}

/** Capitalised kind for the Invalid message, as the apiserver's NewInvalid puts it in details.kind. */
function invalidMessage(status: Status): string {
  const d = status.details;
  let s = "The request is invalid";
  if (d !== undefined && ((d.kind ?? "") !== "" || (d.name ?? "") !== "")) s = `The ${d.kind ?? ""} "${d.name ?? ""}" is invalid`;
  const causes = d?.causes ?? [];
  // MultilineError: one cause inline, several as "* " bullets.
  if (causes.length === 0) return s;
  const lines = causes.map((c) => `${c.field ?? ""}: ${c.message ?? ""}`);
  if (lines.length === 1) return `${s}: ${lines[0] ?? ""}`;
  return `${s}: \n${lines.map((l) => `* ${l}`).join("\n")}`;
}

/** The kubectl text for a failed API call that returned a Status (or an unparsable body). */
export function statusErrorMessage(httpCode: number, status: Status | undefined, rawBody: string): string {
  if (status === undefined || status.kind !== "Status") {
    // client-go's "unknown" error for bodies that are not a Status.
    const body = rawBody.trim();
    return `Error from server: ${body === "" ? `an error on the server ("") has prevented the request from succeeding` : body} (${httpCode})`;
  }
  if (status.reason === "Invalid") return invalidMessage(status);
  if (status.reason === "Unauthorized") return `error: You must be logged in to the server (${status.message ?? "Unauthorized"})`;
  if ((status.reason ?? "") !== "") return `Error from server (${status.reason ?? ""}): ${status.message ?? ""}`;
  return `Error from server: ${status.message ?? ""}`;
}

/** The kubectl text for a transport failure talking to `hostPort`. */
export function connectionErrorMessage(err: unknown, hostPort: string): string {
  const code = (err as { code?: string } | null)?.code;
  if (code === "ECONNREFUSED") return `The connection to the server ${hostPort} was refused - did you specify the right host or port?`;
  const msg = err instanceof Error ? err.message : String(err);
  return `Unable to connect to the server: ${msg}`;
}
