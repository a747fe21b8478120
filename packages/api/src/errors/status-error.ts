/**
 * `StatusError`: the one error family of servicenet. It carries a Kubernetes
 * `Status` exactly as kube-apiserver renders it (k8s.io/apimachinery/pkg/api/errors),
 * so that kubectl prints the same text for it as for a real cluster.
 */
import { aggregateMessage, fieldErrorBody, fieldErrorTypes, type FieldError } from "./field-error.ts";

/** The `reason` values servicenet produces, with their HTTP codes. */
export const statusReasons = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
} as const;

export type StatusReason = keyof typeof statusReasons;

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The wire shape of a meta/v1 Status (the schema in meta/v1 validates the same shape). */
export interface StatusObject {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure" | "Success";
  message: string;
  /** Left out when empty (StatusReasonUnknown), as `omitempty` does. */
  reason?: StatusReason | "";
  details?: StatusDetails;
  code: number;
}

/** A group and resource, `{group: "networking.k8s.io", resource: "servicecidrs"}`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group and kind, `{group: "", kind: "Service"}`. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** Renders a GroupResource as upstream's `String()`: `services`, `servicecidrs.networking.k8s.io`. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group === "" ? gr.resource : `${gr.resource}.${gr.group}`;
}

function groupKindString(gk: GroupKind): string {
  return gk.group === "" ? gk.kind : `${gk.kind}.${gk.group}`;
}

/** Drops the empty fields of an object, as Go's `omitempty` leaves "", 0 and empty slices out of JSON. */
function omitEmpty<T extends object>(o: T): T {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && v !== "" && v !== 0 && !(Array.isArray(v) && v.length === 0)),
  ) as T;
}

/**
 * StatusDetails as kube-apiserver writes it: every field is `omitempty`, so `NewForbidden` of a
 * non-resource path gives `"details":{}`, never `{"name":"","group":"","kind":""}`.
 */
function omitEmptyDetails(d: StatusDetails): StatusDetails {
  const out = omitEmpty(d);
  if (d.causes !== undefined && d.causes.length > 0) out.causes = d.causes.map(omitEmpty);
  return out;
}

/** An error that is a Kubernetes Status. Throw it from anywhere; the server edge serialises `status`. */
export class StatusError extends Error {
  readonly status: StatusObject;

  constructor(reason: StatusReason, message: string, details?: StatusDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StatusError";
    this.status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      ...(details ? { details: omitEmptyDetails(details) } : {}),
      code: statusReasons[reason],
    };
  }

  get reason(): StatusReason {
    return (this.status.reason ?? "") as StatusReason;
  }

  get code(): number {
    return this.status.code;
  }

  /** `services "web" not found` */
  static notFound(gr: GroupResource, name: string): StatusError {
    return new StatusError("NotFound", `${groupResourceString(gr)} "${name}" not found`, {
      name,
      group: gr.group,
      kind: gr.resource,
    });
  }

  /** `services "web" already exists` */
  static alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError("AlreadyExists", `${groupResourceString(gr)} "${name}" already exists`, {
      name,
      group: gr.group,
      kind: gr.resource,
    });
  }

  /** `Operation cannot be fulfilled on services "web": <detail>` */
  static conflict(gr: GroupResource, name: string, detail: string): StatusError {
    return new StatusError("Conflict", `Operation cannot be fulfilled on ${groupResourceString(gr)} "${name}": ${detail}`, {
      name,
      group: gr.group,
      kind: gr.resource,
    });
  }

  /** `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ...`, with one cause per field error. */
  static invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
    const causes = errs.map((e) => ({ reason: fieldErrorTypes[e.type].cause, message: fieldErrorBody(e), field: e.field }));
    const agg = errs.length > 0 ? `: ${aggregateMessage(errs)}` : "";
    return new StatusError("Invalid", `${groupKindString(gk)} "${name}" is invalid${agg}`, {
      name,
      group: gk.group,
      kind: gk.kind,
      causes,
    });
  }

  static badRequest(message: string): StatusError {
    return new StatusError("BadRequest", message);
  }

  static unauthorized(message = "Unauthorized"): StatusError {
    return new StatusError("Unauthorized", message);
  }

  /** `services "web" is forbidden: <detail>` */
  static forbidden(gr: GroupResource, name: string, detail: string): StatusError {
    const what =
      gr.resource === ""
        ? "forbidden"
        : name === ""
          ? `${groupResourceString(gr)} is forbidden`
          : `${groupResourceString(gr)} "${name}" is forbidden`;
    return new StatusError("Forbidden", `${what}: ${detail}`, { name, group: gr.group, kind: gr.resource });
  }

  /** 410 Expired, as a watch or list from a compacted revision gets it. */
  static expired(message: string): StatusError {
    return new StatusError("Expired", message);
  }

  static gone(message: string): StatusError {
    return new StatusError("Gone", message);
  }

  /** `create is not supported on resources of kind "services"` */
  static methodNotSupported(gr: GroupResource, action: string): StatusError {
    return new StatusError("MethodNotAllowed", `${action} is not supported on resources of kind "${groupResourceString(gr)}"`, {
      group: gr.group,
      kind: gr.resource,
    });
  }

  static notAcceptable(message: string): StatusError {
    return new StatusError("NotAcceptable", message);
  }

  static unsupportedMediaType(contentType: string): StatusError {
    return new StatusError(
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml (got ${JSON.stringify(contentType)})`,
    );
  }

  static requestEntityTooLarge(detail: string): StatusError {
    return new StatusError("RequestEntityTooLarge", `Request entity too large: ${detail}`);
  }

  static tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
    return new StatusError("TooManyRequests", message, { retryAfterSeconds });
  }

  /** `Internal error occurred: <detail>` */
  /**
   * A plain (non-Status) error from a REST storage, as upstream's `ErrorToAPIStatus` renders it:
   * code 500, an empty reason (StatusReasonUnknown) and the error's own text.
   */
  static unknown(message: string): StatusError {
    const e = new StatusError("InternalError", message);
    // StatusReasonUnknown is "", which Status's `reason,omitempty` leaves out of the JSON.
    delete e.status.reason;
    return e;
  }

  static internal(detail: string, cause?: unknown): StatusError {
    return new StatusError("InternalError", `Internal error occurred: ${detail}`, { causes: [{ message: detail }] }, { cause });
  }

  static serviceUnavailable(message: string): StatusError {
    return new StatusError("ServiceUnavailable", message);
  }

  static timeout(message: string, retryAfterSeconds = 0): StatusError {
    return new StatusError("Timeout", message, { retryAfterSeconds });
  }
}

/** True for any StatusError (upstream `APIStatus`). */
export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

function hasReason(e: unknown, reason: StatusReason): boolean {
  return e instanceof StatusError && e.reason === reason;
}

export const isNotFound = (e: unknown): boolean => hasReason(e, "NotFound");
export const isAlreadyExists = (e: unknown): boolean => hasReason(e, "AlreadyExists");
export const isConflict = (e: unknown): boolean => hasReason(e, "Conflict");
export const isInvalid = (e: unknown): boolean => hasReason(e, "Invalid");
export const isResourceExpired = (e: unknown): boolean => hasReason(e, "Expired") || hasReason(e, "Gone");

/** Wraps anything thrown into a StatusError; a non-Status error becomes InternalError. */
export function toStatusError(e: unknown): StatusError {
  if (e instanceof StatusError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return StatusError.internal(msg, e);
}
