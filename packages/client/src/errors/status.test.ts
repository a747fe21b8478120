import { ApiException } from "@kubernetes/client-node";
import { StatusError } from "@servicenet/api/errors";
import { describe, expect, it } from "vitest";
import {
  describeError,
  hasStatusCause,
  httpStatusOf,
  isAlreadyExists,
  isConflict,
  isNotFound,
  isResourceExpired,
  toStatusError,
} from "./status.ts";

const statusBody = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code, reason, message });

describe("describeError / httpStatusOf", () => {
  const status = JSON.stringify({
    kind: "Status",
    code: 409,
    reason: "Conflict",
    message: 'Operation cannot be fulfilled on servicecidrs.networking.k8s.io "extra"',
  });
  it.each([
    [
      new ApiException(409, "HTTP-Code: 409 ... long dump", status, {}),
      '409 Conflict: Operation cannot be fulfilled on servicecidrs.networking.k8s.io "extra"',
      409,
    ],
    [new ApiException(404, "dump", "not json", {}), "HTTP 404: not json", 404],
    [Object.assign(new Error("Internal Server Error"), { statusCode: 500 }), "Internal Server Error", 500],
    [new Error("boom"), "boom", undefined],
  ])("%s", (err, msg, code) => {
    expect(describeError(err)).toBe(msg);
    expect(httpStatusOf(err)).toBe(code);
  });

  it("classifies NotFound and Conflict", () => {
    expect(isNotFound(new ApiException(404, "", "", {}))).toBe(true);
    expect(isConflict(new ApiException(409, "", "", {}))).toBe(true);
    expect(isConflict(new ApiException(404, "", "", {}))).toBe(false);
  });
});

describe("toStatusError", () => {
  it("tells AlreadyExists from Conflict by the Status reason, though both are 409", () => {
    const exists = new ApiException(409, "dump", statusBody(409, "AlreadyExists", 'endpoints "web" already exists'), {});
    const stale = new ApiException(409, "dump", statusBody(409, "Conflict", 'Operation cannot be fulfilled on endpoints "web"'), {});
    expect([isAlreadyExists(exists), isConflict(exists)]).toEqual([true, false]);
    expect([isAlreadyExists(stale), isConflict(stale)]).toEqual([false, true]);
  });

  it.each([
    // Status bodies: reason and message from the body (apierrors.FromObject).
    [new ApiException(404, "", statusBody(404, "NotFound", 'services "x" not found'), {}), "NotFound", 404, 'services "x" not found'],
    [
      new ApiException(410, "", statusBody(410, "Expired", "too old resource version: 5 (100)"), {}),
      "Expired",
      410,
      "too old resource version: 5 (100)",
    ],
    // No Status body: the reason NewGenericServerResponse gives the code.
    [
      new ApiException(409, "", "", {}),
      "Conflict",
      409,
      "the server responded with the status code 409 but did not return more information",
    ],
    [
      Object.assign(new Error("Gone"), { statusCode: 410 }),
      "Gone",
      410,
      "the server responded with the status code 410 but did not return more information",
    ],
    [
      new ApiException(502, "", "bad gateway", {}),
      "InternalError",
      502,
      "the server responded with the status code 502 but did not return more information: bad gateway",
    ],
    // A watch ERROR event's object.
    [{ kind: "Status", code: 410, reason: "Expired", message: "too old" }, "Expired", 410, "too old"],
  ])("%#: %s", (err, reason, code, message) => {
    const e = toStatusError(err)!;
    expect(e).toBeInstanceOf(StatusError);
    expect([e.reason, e.code, e.message]).toEqual([reason, code, message]);
  });

  it("leaves errors without an HTTP status alone, and passes StatusErrors through", () => {
    expect(toStatusError(new Error("ECONNREFUSED"))).toBeUndefined();
    const own = StatusError.gone("gone");
    expect(toStatusError(own)).toBe(own);
    expect(isResourceExpired(own)).toBe(true);
  });
});

describe("hasStatusCause", () => {
  const body = (causes: unknown) => JSON.stringify({ kind: "Status", reason: "Forbidden", code: 403, message: "m", details: { causes } });
  it.each([
    ["the cause listed", { code: 403, body: body([{ reason: "NamespaceTerminating", field: "metadata.namespace" }]) }, true],
    ["another cause", { code: 403, body: body([{ reason: "FieldValueInvalid" }]) }, false],
    ["no details", { code: 403, body: JSON.stringify({ kind: "Status", reason: "Forbidden", code: 403 }) }, false],
    ["no HTTP status", new Error("ECONNREFUSED"), false],
  ])("%s", (_n, err, want) => {
    expect(hasStatusCause(err, "NamespaceTerminating")).toBe(want);
  });
});
