import { describe, expect, it } from "vitest";
import { field } from "./field-error.ts";
import { isConflict, isNotFound, StatusError, statusReasons, toStatusError } from "./status-error.ts";

const services = { group: "", resource: "services" };
const serviceCIDRs = { group: "networking.k8s.io", resource: "servicecidrs" };

describe("StatusError", () => {
  it("renders NotFound like kube-apiserver", () => {
    const e = StatusError.notFound(serviceCIDRs, "kubernetes");
    expect(e.status).toStrictEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'servicecidrs.networking.k8s.io "kubernetes" not found',
      reason: "NotFound",
      details: { name: "kubernetes", group: "networking.k8s.io", kind: "servicecidrs" },
      code: 404,
    });
    expect(isNotFound(e)).toBe(true);
  });

  it.each([
    [
      "a non-resource path",
      StatusError.forbidden({ group: "", resource: "" }, "", 'User "system:anonymous" cannot get path "/metrics"'),
      {},
    ],
    ["a collection", StatusError.forbidden({ group: "", resource: "services" }, "", "x"), { kind: "services" }],
    ["retryAfterSeconds 0", new StatusError("TooManyRequests", "m", { retryAfterSeconds: 0, causes: [] }), {}],
    [
      "a cause without a field",
      new StatusError("BadRequest", "m", { causes: [{ reason: "", message: "m", field: "" }] }),
      { causes: [{ message: "m" }] },
    ],
  ])("leaves empty details fields out, as Go's omitempty (%s)", (_, e, details) => {
    expect(JSON.stringify(e.status.details)).toBe(JSON.stringify(details));
  });

  it("renders Invalid with causes so kubectl prints the aggregate", () => {
    const e = StatusError.invalid({ group: "", kind: "Service" }, "web", [
      field.invalid("spec.ipFamilyPolicy", "Foo", "bad"),
      field.required("spec.ports"),
    ]);
    expect(e.code).toBe(422);
    expect(e.message).toBe('Service "web" is invalid: [spec.ipFamilyPolicy: Invalid value: "Foo": bad, spec.ports: Required value]');
    expect(e.status.details?.causes).toStrictEqual([
      { reason: "FieldValueInvalid", message: 'Invalid value: "Foo": bad', field: "spec.ipFamilyPolicy" },
      { reason: "FieldValueRequired", message: "Required value", field: "spec.ports" },
    ]);
  });

  it("renders Conflict with upstream's prefix", () => {
    const e = StatusError.conflict(
      services,
      "web",
      "the object has been modified; please apply your changes to the latest version and try again",
    );
    expect(e.message).toBe(
      'Operation cannot be fulfilled on services "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(isConflict(e)).toBe(true);
  });

  it.each(Object.entries(statusReasons))("reason %s has code %d", (reason, code) => {
    const e = new StatusError(reason as keyof typeof statusReasons, "m");
    expect(e.status.code).toBe(code);
  });

  it("wraps unknown errors as InternalError", () => {
    const e = toStatusError(new Error("boom"));
    expect(e.reason).toBe("InternalError");
    expect(e.message).toBe("Internal error occurred: boom");
    expect(StatusError.methodNotSupported(services, "create").message).toBe('create is not supported on resources of kind "services"');
  });

  it("renders a plain storage error as ErrorToAPIStatus does: 500, the reason left out (omitempty)", () => {
    const e = StatusError.unknown("etcdserver: request is too large");
    expect(JSON.parse(JSON.stringify(e.status))).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "etcdserver: request is too large",
      code: 500,
    });
    expect(e.reason).toBe("");
  });
});
