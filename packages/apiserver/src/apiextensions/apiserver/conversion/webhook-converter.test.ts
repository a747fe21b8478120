/** Upstream pkg/apiserver/conversion/webhook_converter_test.go TestGetConvertedObjectsFromResponse. */
import { describe, expect, it } from "vitest";
import { convertedObjectsFromResponse } from "./webhook-converter.ts";

const v1Object = { apiVersion: "foo/v1", kind: "Widget", metadata: { name: "myv1" } };
const v1 = (response: unknown, typeMeta: Record<string, string> = { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview" }) => ({
  ...typeMeta,
  ...(response !== undefined ? { response } : {}),
});
const review = "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview";

describe("TestGetConvertedObjectsFromResponse", () => {
  it.each<[string, string, unknown, unknown[] | undefined, string | undefined]>([
    ["minimal valid v1beta1", "v1beta1", { response: { result: { status: "Success" } } }, [], undefined],
    [
      "valid v1beta1 with objects",
      "v1beta1",
      { response: { result: { status: "Success" }, convertedObjects: [v1Object] } },
      [v1Object],
      undefined,
    ],
    [
      "error v1beta1, empty status",
      "v1beta1",
      { response: { result: { status: "" } } },
      undefined,
      "response.result.status was '', not 'Success'",
    ],
    [
      "error v1beta1, failure status",
      "v1beta1",
      { response: { result: { status: "Failure" } } },
      undefined,
      "response.result.status was 'Failure', not 'Success'",
    ],
    [
      "error v1beta1, custom status",
      "v1beta1",
      { response: { result: { status: "Failure", message: "some failure message" } } },
      undefined,
      "some failure message",
    ],
    ["invalid v1beta1, no response", "v1beta1", {}, undefined, "no response provided"],
    ["minimal valid v1", "v1", v1({ uid: "uid", result: { status: "Success" } }), [], undefined],
    ["valid v1 with objects", "v1", v1({ uid: "uid", result: { status: "Success" }, convertedObjects: [v1Object] }), [v1Object], undefined],
    ["invalid v1, no uid", "v1", v1({ result: { status: "Success" } }), undefined, 'expected response.uid="uid"'],
    ["invalid v1, no apiVersion", "v1", v1({ uid: "uid", result: { status: "Success" } }, { kind: "ConversionReview" }), undefined, review],
    [
      "invalid v1, no kind",
      "v1",
      v1({ uid: "uid", result: { status: "Success" } }, { apiVersion: "apiextensions.k8s.io/v1" }),
      undefined,
      review,
    ],
    [
      "invalid v1, mismatched apiVersion",
      "v1",
      v1({ uid: "uid", result: { status: "Success" } }, { apiVersion: "apiextensions.k8s.io/v2", kind: "ConversionReview" }),
      undefined,
      review,
    ],
    [
      "invalid v1, mismatched kind",
      "v1",
      v1({ uid: "uid", result: { status: "Success" } }, { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview2" }),
      undefined,
      review,
    ],
    ["error v1, empty status", "v1", v1({ uid: "uid", result: { status: "" } }), undefined, "response.result.status was '', not 'Success'"],
    [
      "error v1, failure status",
      "v1",
      v1({ uid: "uid", result: { status: "Failure" } }),
      undefined,
      "response.result.status was 'Failure', not 'Success'",
    ],
    [
      "error v1, custom status",
      "v1",
      v1({ uid: "uid", result: { status: "Failure", message: "some failure message" } }),
      undefined,
      "some failure message",
    ],
    ["invalid v1, no response", "v1", v1(undefined), undefined, "no response provided"],
  ])("%s", (_name, version, body, objects, err) => {
    if (err !== undefined) expect(() => convertedObjectsFromResponse("uid", body, version)).toThrow(err);
    else expect(convertedObjectsFromResponse("uid", body, version)).toEqual(objects);
  });
});
