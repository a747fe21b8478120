/**
 * Upstream pkg/apiserver/conversion/webhook_converter_test.go TestGetConvertedObjectsFromResponse,
 * and webhookClientConfigForCRD's whitespace-only caBundle.
 */
import { describe, expect, it } from "vitest";
import type { CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { convertedObjectsFromResponse, webhookClientConfigForCRD } from "./webhook-converter.ts";

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

describe("webhookClientConfigForCRD", () => {
  const crd = (clientConfig: Record<string, unknown>) =>
    ({
      metadata: { name: "multiversion.stable.example.com" },
      spec: { conversion: { strategy: "Webhook", webhook: { clientConfig, conversionReviewVersions: ["v1"] } } },
    }) as unknown as CustomResourceDefinition;
  const b64 = (s: string) => Buffer.from(s).toString("base64");

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ["a caBundle is kept", { url: "https://h/c", caBundle: b64("pem") }, { url: "https://h/c", caBundle: b64("pem") }],
    ["whitespace only is treated as empty", { url: "https://h/c", caBundle: b64("    \n\t   ") }, { url: "https://h/c" }],
    ["unicode white space too", { url: "https://h/c", caBundle: b64("\u00a0\u2003\u0085\r\f\v") }, { url: "https://h/c" }],
    [
      "a byte-order mark is no white space",
      { url: "https://h/c", caBundle: b64("\ufeff") },
      { url: "https://h/c", caBundle: b64("\ufeff") },
    ],
    ["an empty caBundle stays empty", { url: "https://h/c", caBundle: "" }, { url: "https://h/c", caBundle: "" }],
    [
      "the service port defaults to 443",
      { service: { namespace: "ns", name: "n", path: "/c" }, caBundle: b64(" ") },
      { service: { namespace: "ns", name: "n", path: "/c", port: 443 } },
    ],
  ])("%s", (_name, clientConfig, want) => {
    expect(webhookClientConfigForCRD(crd(clientConfig))).toEqual(want);
  });
});
