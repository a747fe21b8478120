import { ApiException } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { describeError, httpStatusOf, isConflict, isNotFound } from "./plain.ts";

describe("describeError / httpStatusOf", () => {
  const status = JSON.stringify({ kind: "Status", code: 409, reason: "Conflict", message: 'Operation cannot be fulfilled on servicecidrs.networking.k8s.io "extra"' });
  it.each([
    [new ApiException(409, "HTTP-Code: 409 ... long dump", status, {}), '409 Conflict: Operation cannot be fulfilled on servicecidrs.networking.k8s.io "extra"', 409],
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
