/** metav1.Status bodies as kube-apiserver writes them (`apimachinery/pkg/api/errors/errors.go`). */
import { groupResource, type ResourceInfo } from "./resources.ts";

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure" | "Success";
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string };
  code: number;
}

/** An error carrying the Status the fake answers with. */
export class FakeStatusError extends Error {
  readonly status: Status;
  constructor(status: Status) {
    super(status.message ?? status.reason ?? String(status.code));
    this.status = status;
  }
}

/** A failure Status; `resource` and `name` fill `details` as upstream's NewNotFound and friends do. */
export function failure(code: number, reason: string, message: string, resource?: ResourceInfo, name?: string): Status {
  const details =
    resource === undefined ? undefined : { ...(name === undefined ? {} : { name }), group: resource.group, kind: resource.name };
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, ...(details ? { details } : {}), code };
}

export const notFound = (r: ResourceInfo, name: string): FakeStatusError =>
  new FakeStatusError(failure(404, "NotFound", `${groupResource(r)} "${name}" not found`, r, name));

export const alreadyExists = (r: ResourceInfo, name: string): FakeStatusError =>
  new FakeStatusError(failure(409, "AlreadyExists", `${groupResource(r)} "${name}" already exists`, r, name));

export const conflict = (r: ResourceInfo, name: string, why: string): FakeStatusError =>
  new FakeStatusError(failure(409, "Conflict", `Operation cannot be fulfilled on ${groupResource(r)} "${name}": ${why}`, r, name));

/** The ERROR event a watch gets when its resourceVersion is too old (410 Expired). */
export const expired = (message = "too old resource version"): Status => failure(410, "Expired", message);

export const internalError = (message = "an error on the server has prevented the request from succeeding"): Status =>
  failure(500, "InternalError", message);
