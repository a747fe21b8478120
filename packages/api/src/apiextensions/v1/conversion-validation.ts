/**
 * spec.conversion of a CustomResourceDefinition (apiextensions-apiserver pkg/apis/apiextensions/
 * validation/validation.go validateCustomResourceConversion, validateConversionReviewVersions,
 * allowInvalidCABundle; k8s.io/apiserver/pkg/util/webhook/validation.go ValidateCABundle). Paths
 * are the internal type's, as upstream reports them: `conversion.webhookClientConfig` and
 * `conversion.conversionReviewVersions`.
 */
import { X509Certificate } from "node:crypto";
import { field, GoValue, path, type FieldErrorList } from "../../errors/field-error.ts";
import { isDNS1035Label } from "../../meta/v1/validation/name.ts";
import { validateWebhookService, validateWebhookURL } from "../../admissionregistration/v1/webhook-client-config.ts";
import { isCRDConditionTrue, type CustomResourceConversion, type CustomResourceDefinition } from "./types.ts";

/** acceptedConversionReviewVersions, sorted as sets.List gives them. */
const acceptedConversionReviewVersions = ["v1", "v1beta1"];

export interface ConversionValidationOptions {
  /** requireRecognizedConversionReviewVersion: true on create, on update only if the old CRD had one (or none at all). */
  requireRecognizedVersion: boolean;
  /** allowInvalidCABundle: the old CRD was not established, or its caBundle was already invalid. */
  allowInvalidCABundle: boolean;
}

/** validateCustomResourceConversion. */
export function validateCustomResourceConversion(
  conversion: CustomResourceConversion | undefined,
  at: string,
  opts: ConversionValidationOptions,
): FieldErrorList {
  if (conversion === undefined) return [];
  const errs: FieldErrorList = [];
  const strategy = conversion.strategy;
  if (strategy === "") errs.push(field.required(`${at}.strategy`));
  else if (strategy !== "None" && strategy !== "Webhook") errs.push(field.notSupported(`${at}.strategy`, strategy, ["None", "Webhook"]));
  const cc = conversion.webhook?.clientConfig;
  const reviewVersions = conversion.webhook?.conversionReviewVersions ?? [];
  const ccAt = `${at}.webhookClientConfig`;
  if (strategy !== "Webhook") {
    if (cc !== undefined) errs.push(field.forbidden(ccAt, "should not be set when strategy is not set to Webhook"));
    if (reviewVersions.length > 0)
      errs.push(field.forbidden(`${at}.conversionReviewVersions`, "should not be set when strategy is not set to Webhook"));
    return errs;
  }
  if (cc === undefined) errs.push(field.required(ccAt, "required when strategy is set to Webhook"));
  else {
    if ((cc.url === undefined) === (cc.service === undefined)) errs.push(field.required(ccAt, "exactly one of url or service is required"));
    else if (cc.url !== undefined) errs.push(...validateWebhookURL(`${ccAt}.url`, cc.url, true));
    else if (cc.service !== undefined)
      errs.push(
        ...validateWebhookService(`${ccAt}.service`, cc.service.name, cc.service.namespace, cc.service.path, cc.service.port ?? 443),
      );
    const bundle = Buffer.from(cc.caBundle ?? "", "base64");
    if (bundle.length > 0 && !opts.allowInvalidCABundle) errs.push(...validateCABundle(`${ccAt}.caBundle`, bundle));
  }
  errs.push(...validateConversionReviewVersions(reviewVersions, opts.requireRecognizedVersion, `${at}.conversionReviewVersions`));
  return errs;
}

function validateConversionReviewVersions(versions: readonly string[], requireRecognized: boolean, at: string): FieldErrorList {
  if (versions.length === 0) return [field.required(at)];
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(field.invalid(path(at, i), v, "duplicate version"));
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(field.invalid(path(at, i), v, e));
    if (acceptedConversionReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted)
    errs.push(
      field.invalid(at, new GoValue(goStrings(versions)), `must include at least one of ${acceptedConversionReviewVersions.join(", ")}`),
    );
  return errs;
}

/** webhook.ValidateCABundle: cert.ParseCertsPEM must find a certificate. */
export function validateCABundle(at: string, bundle: Buffer): FieldErrorList {
  const err = parseCertsPEMError(bundle.toString("latin1"));
  return err === undefined ? [] : [field.invalid(at, new GoValue(goBytes(bundle)), err)];
}

/** cert.ParseCertsPEM's error, if any: every CERTIFICATE block must parse, and there must be one. */
function parseCertsPEMError(pem: string): string | undefined {
  const blocks = [...pem.matchAll(/-----BEGIN ([^-]+)-----([\s\S]*?)-----END \1-----/g)].filter((m) => m[1] === "CERTIFICATE");
  for (const b of blocks) {
    try {
      new X509Certificate(b[0]);
    } catch {
      return "x509: malformed certificate";
    }
  }
  return blocks.length === 0 ? "data does not contain any valid RSA or ECDSA certificates" : undefined;
}

/** Whether an update may keep an invalid caBundle (allowInvalidCABundle). */
export function allowInvalidCABundle(old: CustomResourceDefinition): boolean {
  if (!isCRDConditionTrue(old, "Established")) return true;
  const bundle = Buffer.from(old.spec.conversion?.webhook?.clientConfig?.caBundle ?? "", "base64");
  return bundle.length > 0 && validateCABundle("caBundle", bundle).length > 0;
}

/** hasValidConversionReviewVersionOrEmpty. */
export function hasValidConversionReviewVersionOrEmpty(versions: readonly string[]): boolean {
  return versions.length === 0 || versions.some((v) => acceptedConversionReviewVersions.includes(v));
}

/** `%#v` of a []string. */
function goStrings(vs: readonly string[]): string {
  return `[]string{${vs.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** `%#v` of a []byte. */
function goBytes(b: Buffer): string {
  return `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(", ")}}`;
}
