/**
 * client-node's failures as the api package's StatusError family, the way client-go's rest client
 * turns a response into an error (k8s.io/client-go/rest/request.go transformResponse ->
 * apierrors.FromObject for a Status body, else apierrors.NewGenericServerResponse by HTTP code).
 * Callers test errors by Status reason, never by HTTP code alone: 409 is both AlreadyExists and
 * Conflict.
 */
import {
  StatusError,
  isAlreadyExists as hasAlreadyExists,
  isConflict as hasConflict,
  isInvalid as hasInvalid,
  isNotFound as hasNotFound,
  isResourceExpired as hasExpired,
  statusReasons,
  type StatusDetails,
  type StatusReason,
} from "@servicenet/api/errors";

/** The HTTP status of a client-node ApiException (or a watch error), if any. */
export function httpStatusOf(err: unknown): number | undefined {
  if (err instanceof StatusError) return err.code;
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  if (typeof e.code === "number") return e.code;
  if (typeof e.statusCode === "number") return e.statusCode;
  return undefined;
}

/** apierrors.NewGenericServerResponse's reason for a code without a Status body. */
const reasonForCode: Readonly<Record<number, StatusReason>> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  406: "NotAcceptable",
  409: "Conflict",
  410: "Gone",
  413: "RequestEntityTooLarge",
  415: "UnsupportedMediaType",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

interface WireStatus {
  kind?: unknown;
  reason?: unknown;
  message?: unknown;
  details?: unknown;
  code?: unknown;
}

function parseStatus(body: unknown): WireStatus | undefined {
  const parsed = typeof body === "string" ? safeJSON(body) : body;
  if (typeof parsed !== "object" || parsed === null || (parsed as WireStatus).kind !== "Status") return undefined;
  return parsed;
}

function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isReason = (r: unknown): r is StatusReason => typeof r === "string" && Object.hasOwn(statusReasons, r);

/**
 * The StatusError an error stands for: itself if it is one; a client-node ApiException (or a
 * watch's `{statusCode}` error, or a watch ERROR event's Status) by its Status body's reason,
 * else by its HTTP code; undefined for errors that carry no HTTP status (connection failures).
 */
export function toStatusError(err: unknown): StatusError | undefined {
  if (err instanceof StatusError) return err;
  const status = parseStatus((err as { body?: unknown } | null)?.body) ?? parseStatus(err);
  const code = httpStatusOf(err) ?? (typeof status?.code === "number" ? status.code : undefined);
  if (code === undefined) return undefined;
  const reason = isReason(status?.reason) ? status.reason : (reasonForCode[code] ?? "InternalError");
  const message = typeof status?.message === "string" ? status.message : genericMessage(err, code);
  const details = typeof status?.details === "object" && status.details !== null ? (status.details as StatusDetails) : undefined;
  const e = new StatusError(reason, message, details, { cause: err });
  // Keep the server's code where it differs from the reason's usual one (a 500 with reason "").
  e.status.code = code;
  return e;
}

function genericMessage(err: unknown, code: number): string {
  const body = (err as { body?: unknown } | null)?.body;
  if (typeof body === "string" && body.trim() !== "")
    return `the server responded with the status code ${code} but did not return more information: ${body.slice(0, 200)}`;
  return `the server responded with the status code ${code} but did not return more information`;
}

const by =
  (test: (e: unknown) => boolean) =>
  (err: unknown): boolean => {
    const e = toStatusError(err);
    return e !== undefined && test(e);
  };

/** apierrors.HasStatusCause: the error's Status lists a cause of type `name` (`details.causes[].reason`). */
export function hasStatusCause(err: unknown, name: string): boolean {
  return toStatusError(err)?.status.details?.causes?.some((c) => c.reason === name) ?? false;
}

/** apierrors.IsNotFound over client-node errors. */
export const isNotFound = by(hasNotFound);
/** apierrors.IsAlreadyExists: a 409 whose Status says AlreadyExists (not any 409). */
export const isAlreadyExists = by(hasAlreadyExists);
/** apierrors.IsConflict: a 409 whose Status says Conflict (a stale resourceVersion). */
export const isConflict = by(hasConflict);
export const isInvalid = by(hasInvalid);
/** apierrors.IsResourceExpired || IsGone: the watch or list must start over. */
export const isResourceExpired = by(hasExpired);

/**
 * A one-line description of an error for logs. client-node's ApiException message embeds the
 * whole response (body and headers); the Status inside says it better:
 * "409 Conflict: Operation cannot be fulfilled on ...".
 */
export function describeError(err: unknown): string {
  const code = httpStatusOf(err);
  const body = (err as { body?: unknown } | null)?.body;
  if (code !== undefined && typeof body === "string") {
    const status = parseStatus(body);
    if (typeof status?.message === "string")
      return `${code} ${typeof status.reason === "string" ? status.reason : ""}: ${status.message}`.replace(" :", ":");
    return `HTTP ${code}: ${body.slice(0, 200)}`;
  }
  return err instanceof Error ? err.message : String(err);
}
