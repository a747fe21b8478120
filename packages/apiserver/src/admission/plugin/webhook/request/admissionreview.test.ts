import { describe, expect, it } from "vitest";
import { attrs } from "../testing.ts";
import { admissionReviewVersionFor, createAdmissionReview, verifyAdmissionResponse } from "./admissionreview.ts";

// webhook/request/admissionreview.go CreateAdmissionObjects and VerifyAdmissionResponse.
describe("CreateAdmissionObjects: the AdmissionReview version", () => {
  const cases: [string[] | undefined, string | Error][] = [
    [["v1"], "v1"],
    [["v1beta1", "v1"], "v1beta1"],
    [["v2", "v1"], "v1"],
    [[], new Error("webhook does not accept known AdmissionReview versions (v1, v1beta1)")],
    [undefined, new Error("webhook does not accept known AdmissionReview versions (v1, v1beta1)")],
  ];
  for (const [versions, want] of cases)
    it(JSON.stringify(versions), () => {
      if (want instanceof Error) expect(() => admissionReviewVersionFor(versions)).toThrow(want.message);
      else expect(admissionReviewVersionFor(versions)).toBe(want);
    });
  it("the review carries the chosen apiVersion", () => {
    expect(createAdmissionReview(attrs(), "u", "v1beta1").review["apiVersion"]).toBe("admission.k8s.io/v1beta1");
    expect(createAdmissionReview(attrs(), "u").review["apiVersion"]).toBe("admission.k8s.io/v1");
  });
});

describe("VerifyAdmissionResponse", () => {
  const patch = Buffer.from("[]").toString("base64");
  it("v1: uid, kind and patchType are checked", () => {
    expect(() => verifyAdmissionResponse("u", false, { response: { uid: "x", allowed: true } })).toThrow(
      'expected response.uid="u", got "x"',
    );
    expect(() => verifyAdmissionResponse("u", false, { response: { uid: "u", allowed: true } })).toThrow(
      "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=",
    );
    const review = { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid: "u", allowed: true, patch } };
    expect(() => verifyAdmissionResponse("u", true, review)).toThrow("webhook returned response.patch but not response.patchType");
    expect(() => verifyAdmissionResponse("u", false, review)).toThrow("validating webhook may not return response.patch");
  });
  it("v1beta1: neither uid nor kind checked, a patch is a JSONPatch, a validating webhook's patch ignored", () => {
    const review = { response: { allowed: true, patch } };
    expect(verifyAdmissionResponse("u", true, review, "v1beta1")).toMatchObject({ allowed: true, patch: "[]" });
    expect(verifyAdmissionResponse("u", false, review, "v1beta1").patch).toBeUndefined();
    expect(() => verifyAdmissionResponse("u", true, {}, "v1beta1")).toThrow("webhook response was absent");
  });
});
