/**
 * The AdmissionReview a webhook is sent and what is accepted back
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go CreateV1AdmissionReview,
 * CreateV1beta1AdmissionReview, CreateAdmissionObjects, VerifyAdmissionResponse): the first of the
 * webhook's `admissionReviewVersions` this server knows, v1 or v1beta1.
 */
import { randomUUID } from "node:crypto";
import type { Attributes } from "../../../attributes.ts";
import type { WebhookResultStatus } from "../errors/errors.ts";

export const admissionReviewAPIVersion = "admission.k8s.io/v1";

/** The AdmissionReview versions a webhook can be sent. */
export type AdmissionReviewVersion = "v1" | "v1beta1";

/** CreateAdmissionObjects' choice: the first of `versions` that is v1 or v1beta1. */
export function admissionReviewVersionFor(versions: readonly string[] | undefined): AdmissionReviewVersion {
  for (const v of versions ?? []) if (v === "v1" || v === "v1beta1") return v;
  throw new Error("webhook does not accept known AdmissionReview versions (v1, v1beta1)");
}

/** The request side of an AdmissionReview of `version` (the request has the same fields in both). */
export function createAdmissionReview(
  a: Attributes,
  uid: string = randomUUID(),
  version: AdmissionReviewVersion = "v1",
): { uid: string; review: Record<string, unknown> } {
  const userInfo = {
    username: a.userInfo.username,
    ...(a.userInfo.uid ? { uid: a.userInfo.uid } : {}),
    ...(a.userInfo.groups?.length ? { groups: a.userInfo.groups } : {}),
    ...(a.userInfo.extra && Object.keys(a.userInfo.extra).length > 0 ? { extra: a.userInfo.extra } : {}),
  };
  const request = {
    uid,
    kind: a.kind,
    resource: a.resource,
    ...(a.subresource ? { subResource: a.subresource } : {}),
    // The requested resource; a hook matched through an equivalent one sees its own as kind/resource.
    requestKind: a.requestKind ?? a.kind,
    requestResource: a.requestResource ?? a.resource,
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo,
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    dryRun: a.dryRun,
    options: a.options ?? null,
  };
  return { uid, review: { kind: "AdmissionReview", apiVersion: `admission.k8s.io/${version}`, request } };
}

/** What a webhook answered (webhookrequest.AdmissionResponse). */
export interface AdmissionResult {
  allowed: boolean;
  result?: WebhookResultStatus;
  /** The JSON patch's text, base64-decoded (mutating webhooks); parsed by the dispatcher. */
  patch?: string;
  auditAnnotations: Record<string, string>;
  warnings: string[];
}

const gvkString = (apiVersion: unknown, kind: unknown): string => {
  const av = typeof apiVersion === "string" ? apiVersion : "";
  const [group, version] = av.includes("/") ? [av.slice(0, av.indexOf("/")), av.slice(av.indexOf("/") + 1)] : ["", av];
  return `${group}/${version}, Kind=${typeof kind === "string" ? kind : ""}`;
};

/**
 * VerifyAdmissionResponse; throws with upstream's text for an answer that cannot be used. A v1beta1
 * answer is read as upstream always read it: neither its uid nor its kind checked, a mutating
 * webhook's patch taken as a JSONPatch, a validating webhook's ignored.
 */
export function verifyAdmissionResponse(
  uid: string,
  mutating: boolean,
  body: unknown,
  version: AdmissionReviewVersion = "v1",
): AdmissionResult {
  const review = (body ?? {}) as { apiVersion?: unknown; kind?: unknown; response?: Record<string, unknown> | null };
  const r = review.response;
  if (r === undefined || r === null) throw new Error("webhook response was absent");
  if (version === "v1beta1") {
    const patch = mutating && typeof r["patch"] === "string" ? r["patch"] : "";
    return result(r, patch);
  }
  if (r["uid"] !== uid) throw new Error(`expected response.uid="${uid}", got "${typeof r["uid"] === "string" ? r["uid"] : ""}"`);
  if (review.apiVersion !== admissionReviewAPIVersion || review.kind !== "AdmissionReview")
    throw new Error(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(review.apiVersion, review.kind)}`,
    );
  const patch = typeof r["patch"] === "string" ? r["patch"] : "";
  const patchType = typeof r["patchType"] === "string" ? r["patchType"] : "";
  if (mutating) {
    if (patch !== "" && patchType === "") throw new Error("webhook returned response.patch but not response.patchType");
    if (patch !== "" && patchType !== "JSONPatch") throw new Error(`webhook returned invalid response.patchType of "${patchType}"`);
  } else {
    if (patch !== "") throw new Error("validating webhook may not return response.patch");
    if (patchType !== "") throw new Error("validating webhook may not return response.patchType");
  }
  return result(r, patch);
}

/** The AdmissionResponse fields both versions share. */
function result(r: Record<string, unknown>, patch: string): AdmissionResult {
  const annotations = (r["auditAnnotations"] ?? {}) as Record<string, string>;
  const warnings = Array.isArray(r["warnings"]) ? (r["warnings"] as unknown[]).filter((w): w is string => typeof w === "string") : [];
  const out: AdmissionResult = { allowed: r["allowed"] === true, auditAnnotations: annotations, warnings };
  if (r["status"] !== undefined && r["status"] !== null) out.result = r["status"];
  if (patch !== "") out.patch = Buffer.from(patch, "base64").toString("utf8");
  return out;
}
