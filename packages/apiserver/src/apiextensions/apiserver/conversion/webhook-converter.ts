/**
 * The Webhook conversion strategy (apiextensions-apiserver pkg/apiserver/conversion/
 * webhook_converter.go): a ConversionReview (v1 or v1beta1, the first of the CRD's
 * `conversionReviewVersions` this server speaks) is posted to the CRD's webhook through the same
 * client as the admission webhooks (service or URL clientConfig, caBundle, the service resolver);
 * the answer is checked as upstream checks it and the converted object gets its metadata back
 * but for the labels and annotations the webhook may change. Errors carry upstream's texts.
 */
import { randomUUID } from "node:crypto";
import type { WebhookClientConfig } from "@servicenet/api/admissionregistration/v1";
import type { CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { postWebhook, type PostWebhookOptions } from "../../../admission/plugin/webhook/client.ts";
import type { KubeObject } from "../../../storage/index.ts";
import { restoreObjectMeta, validateConvertedObject } from "./converted-object.ts";

/** How a conversion webhook is called: the admission webhooks' poster and its resolver, pool and credentials. */
export interface WebhookConverterOptions extends PostWebhookOptions {
  post?: typeof postWebhook;
}

/**
 * The rest client's timeout for a conversion call: conversion webhooks have no timeoutSeconds,
 * webhook.ClientManager's clients give up after 30 s.
 */
const conversionTimeoutMs = 30_000;

type JSONMap = Record<string, unknown>;

/** The ConversionReview versions this server sends (acceptedConversionReviewVersions). */
const reviewGroup = "apiextensions.k8s.io";

/** schema.GroupVersionKind.String of an object: `group/version, Kind=kind`. */
export function gvkString(obj: { apiVersion?: unknown; kind?: unknown }): string {
  const apiVersion = typeof obj.apiVersion === "string" ? obj.apiVersion : "";
  const gv = apiVersion.includes("/") ? apiVersion : `/${apiVersion}`;
  return `${gv}, Kind=${typeof obj.kind === "string" ? obj.kind : ""}`;
}

/**
 * webhookClientConfigForCRD: the client config of the CRD's webhook. The service port is defaulted
 * (443) in the v1 API. A caBundle of whitespace only, which validation refuses but a CRD written
 * past it may hold, is treated as empty: the system trust roots verify the webhook, and requests
 * that need no conversion are served.
 */
export function webhookClientConfigForCRD(crd: CustomResourceDefinition): WebhookClientConfig {
  const cc = crd.spec.conversion?.webhook?.clientConfig ?? {};
  const bundle = Buffer.from(cc.caBundle ?? "", "base64");
  const whitespaceOnly = bundle.length > 0 && isSpaceOnly(bundle.toString("utf8"));
  return {
    ...(cc.url !== undefined ? { url: cc.url } : {}),
    ...(cc.caBundle !== undefined && !whitespaceOnly ? { caBundle: cc.caBundle } : {}),
    ...(cc.service !== undefined ? { service: { ...cc.service, port: cc.service.port ?? 443 } } : {}),
  };
}

/**
 * len(bytes.TrimSpace(b)) == 0: unicode.IsSpace is String.prototype.trim's white space with NEL
 * (U+0085) and without the byte-order mark.
 */
function isSpaceOnly(text: string): boolean {
  return !text.includes("\uFEFF") && text.replaceAll("\u0085", "").trim() === "";
}

/** webhookConverter: one per CRD, rebuilt when the CRD changes. */
export class WebhookConverter {
  readonly #clientConfig: WebhookClientConfig;
  readonly #reviewVersions: readonly string[];
  readonly #o: WebhookConverterOptions;

  constructor(crd: CustomResourceDefinition, o: WebhookConverterOptions) {
    this.#clientConfig = webhookClientConfigForCRD(crd);
    this.#reviewVersions = crd.spec.conversion?.webhook?.conversionReviewVersions ?? [];
    this.#o = o;
  }

  /** Convert: `obj` into `toGV` (`group/version`); an object already there, or an empty one, is returned as it is. */
  async convert(obj: KubeObject, toGV: string): Promise<KubeObject> {
    if (obj.apiVersion === toGV || isEmptyObject(obj)) return { ...obj, apiVersion: toGV };
    const uid = randomUUID();
    const version = this.#reviewVersions.find((v) => v === "v1beta1" || v === "v1");
    if (version === undefined) throw new Error("no supported conversion review versions");
    const review = {
      kind: "ConversionReview",
      apiVersion: `${reviewGroup}/${version}`,
      request: { uid, desiredAPIVersion: toGV, objects: [obj] },
    };
    const gvk = gvkString(obj);
    let body: unknown;
    try {
      body = await (this.#o.post ?? postWebhook)(this.#clientConfig, review, conversionTimeoutMs, this.#o);
    } catch (e) {
      throw new Error(`conversion webhook for ${gvk} failed: ${(e as Error).message}`);
    }
    let converted: unknown[];
    try {
      converted = convertedObjectsFromResponse(uid, body, version);
    } catch (e) {
      throw new Error(`conversion webhook for ${gvk} failed: ${(e as Error).message}`);
    }
    if (converted.length !== 1) throw new Error(`conversion webhook for ${gvk} returned ${converted.length} objects, expected 1`);
    const out = rawExtensionObject(converted[0]);
    const gotGV = typeof out["apiVersion"] === "string" ? out["apiVersion"] : "";
    if (gotGV !== toGV)
      throw new Error(
        `conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${toGV}, received ${gotGV})`,
      );
    if (out["kind"] !== obj.kind)
      throw new Error(
        `conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected ${obj.kind}, received ${String(out["kind"])})`,
      );
    try {
      validateConvertedObject(obj, out);
    } catch (e) {
      throw new Error(`conversion webhook for ${gvk} returned invalid object: ${(e as Error).message}`);
    }
    try {
      restoreObjectMeta(obj, out);
    } catch (e) {
      throw new Error(`conversion webhook for ${gvk} returned invalid metadata: ${(e as Error).message}`);
    }
    return out as KubeObject;
  }
}

/** getConvertedObjectsFromResponse: the answer's converted objects, or why there are none. */
export function convertedObjectsFromResponse(uid: string, body: unknown, version: string): unknown[] {
  const review = isMap(body) ? body : {};
  if (version === "v1") {
    // Only v1 checks the kind and uid (v1beta1 did not, and still does not for compatibility).
    const want = `${reviewGroup}/v1, Kind=ConversionReview`;
    const got = gvkString(review);
    if (got !== want) throw new Error(`expected webhook response of ${want}, got ${got}`);
  }
  const response = review["response"];
  if (!isMap(response)) throw new Error("no response provided");
  const gotUID = typeof response["uid"] === "string" ? response["uid"] : "";
  if (version === "v1" && gotUID !== uid) throw new Error(`expected response.uid="${uid}", got "${gotUID}"`);
  const result = isMap(response["result"]) ? response["result"] : {};
  if (result["status"] !== "Success") {
    const message = typeof result["message"] === "string" ? result["message"] : "";
    if (message !== "") throw new Error(message);
    return failStatus(result["status"]);
  }
  const objects = response["convertedObjects"];
  return Array.isArray(objects) ? objects : [];
}

function failStatus(status: unknown): never {
  throw new Error(`response.result.status was '${typeof status === "string" ? status : ""}', not 'Success'`);
}

/** getRawExtensionObject: an unstructured object needs its kind (unstructured's UnmarshalJSON). */
function rawExtensionObject(raw: unknown): JSONMap {
  const text = JSON.stringify(raw);
  if (!isMap(raw)) throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (typeof raw["kind"] !== "string" || raw["kind"] === "") throw new Error(`Object 'Kind' is missing in '${text}'`);
  return raw;
}

/** isEmptyUnstructuredObject: nothing but apiVersion and kind (the cacher's smoke test converts one). */
function isEmptyObject(obj: KubeObject): boolean {
  const keys = Object.keys(obj);
  return keys.length === 2 && keys.includes("apiVersion") && keys.includes("kind");
}

function isMap(v: unknown): v is JSONMap {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
