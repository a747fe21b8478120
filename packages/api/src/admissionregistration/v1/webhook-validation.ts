/**
 * Webhook configuration validation (pkg/apis/admissionregistration/validation/validation.go
 * ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration and their Update
 * forms, validateValidatingWebhook, validateMutatingWebhook, validateAdmissionReviewVersions,
 * validateMatchConditions), on defaulted objects.
 */
import { field, path, type FieldErrorList } from "../../errors/index.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import { validateQualifiedName } from "../../meta/v1/validation/labels.ts";
import { isDNS1035Label, isDNS1123Subdomain } from "../../meta/v1/validation/name.ts";
import { validateObjectMeta } from "../../meta/v1/validation/object-meta.ts";
import type { MatchCondition } from "./types.ts";
import type { ExpressionCompiler } from "./validation.ts";
import { validateRuleWithOperations } from "./validation-rules.ts";
import { validateWebhookService, validateWebhookURL } from "./webhook-client-config.ts";
import type { MutatingWebhook, MutatingWebhookConfiguration, ValidatingWebhook, ValidatingWebhookConfiguration } from "./webhook-types.ts";

/** The AdmissionReview versions this server speaks (AcceptedAdmissionReviewVersions). */
export const acceptedAdmissionReviewVersions: readonly string[] = ["v1", "v1beta1"];
const supportedFailurePolicies = ["Fail", "Ignore"];
const supportedMatchPolicies = ["Equivalent", "Exact"];
const supportedSideEffectClasses = ["None", "NoneOnDryRun", "Some", "Unknown"];
const noSideEffectClasses = ["None", "NoneOnDryRun"];
const supportedReinvocationPolicies = ["IfNeeded", "Never"];

/** What an update relaxes for webhooks already stored that way (validationOptions). */
export interface WebhookValidationOptions {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  compile?: ExpressionCompiler | undefined;
}

const createOptions = (compile?: ExpressionCompiler): WebhookValidationOptions => ({
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  compile,
});

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(fld: string, name: string): FieldErrorList {
  if (name === "") return [field.required(fld)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [field.invalid(fld, name, errs.join(","))];
  if (name.split(".").length < 3) return [field.invalid(fld, name, "should be a domain with at least three segments separated by dots")];
  return [];
}

function validateAdmissionReviewVersions(versions: readonly string[], requireRecognized: boolean, fld: string): FieldErrorList {
  if (versions.length === 0) return [field.required(fld, `must specify one of ${acceptedAdmissionReviewVersions.join(", ")}`)];
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(field.invalid(path(fld, i), v, "duplicate version"));
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(field.invalid(path(fld, i), v, m));
  });
  if (requireRecognized && !versions.some((v) => acceptedAdmissionReviewVersions.includes(v)))
    errs.push(field.invalid(fld, versions, `must include at least one of ${acceptedAdmissionReviewVersions.join(", ")}`));
  return errs;
}

/** validateMatchConditions with the webhook environment (no params). */
function validateMatchConditions(
  conditions: readonly MatchCondition[],
  compile: ExpressionCompiler | undefined,
  fld: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (conditions.length > 64) errs.push(field.tooMany(fld, conditions.length, 64));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const cf = path(fld, i);
    const expr = c.expression.trim();
    if (expr === "") errs.push(field.required(path(cf, "expression")));
    else {
      const err = compile?.(expr);
      if (err?.type === "Required") errs.push(field.required(path(cf, "expression"), err.detail));
      else if (err?.type === "Invalid") errs.push(field.invalid(path(cf, "expression"), expr, err.detail));
      else if (err) errs.push(field.internal(path(cf, "expression"), err.detail));
    }
    if (c.name === "") errs.push(field.required(path(cf, "name")));
    else errs.push(...validateQualifiedName(c.name, path(cf, "name")));
    if (c.name !== "" && names.has(c.name)) errs.push(field.duplicate(path(cf, "name"), c.name));
    names.add(c.name);
  });
  return errs;
}

/** validateValidatingWebhook (and, with `mutating`, validateMutatingWebhook). */
function validateWebhook(w: MutatingWebhook, opts: WebhookValidationOptions, fld: string, mutating: boolean): FieldErrorList {
  const errs = validateFullyQualifiedName(path(fld, "name"), w.name);
  (w.rules ?? []).forEach((r, i) => errs.push(...validateRuleWithOperations(r, path(fld, "rules", i))));
  if (w.failurePolicy !== undefined && !supportedFailurePolicies.includes(w.failurePolicy))
    errs.push(field.notSupported(path(fld, "failurePolicy"), w.failurePolicy, supportedFailurePolicies));
  if (w.matchPolicy !== undefined && !supportedMatchPolicies.includes(w.matchPolicy))
    errs.push(field.notSupported(path(fld, "matchPolicy"), w.matchPolicy, supportedMatchPolicies));
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : supportedSideEffectClasses;
  if (w.sideEffects === undefined)
    errs.push(field.required(path(fld, "sideEffects"), `must specify one of ${allowedSideEffects.join(", ")}`));
  else if (!allowedSideEffects.includes(w.sideEffects))
    errs.push(field.notSupported(path(fld, "sideEffects"), w.sideEffects, allowedSideEffects));
  if (w.timeoutSeconds !== undefined && (w.timeoutSeconds > 30 || w.timeoutSeconds < 1))
    errs.push(field.invalid(path(fld, "timeoutSeconds"), w.timeoutSeconds, "the timeout value must be between 1 and 30 seconds"));
  if (w.namespaceSelector) errs.push(...validateLabelSelector(w.namespaceSelector, {}, path(fld, "namespaceSelector")));
  if (w.objectSelector) errs.push(...validateLabelSelector(w.objectSelector, {}, path(fld, "objectSelector")));
  if (mutating && w.reinvocationPolicy !== undefined && !supportedReinvocationPolicies.includes(w.reinvocationPolicy))
    errs.push(field.notSupported(path(fld, "reinvocationPolicy"), w.reinvocationPolicy, supportedReinvocationPolicies));
  const cc = w.clientConfig ?? {};
  const ccFld = path(fld, "clientConfig");
  if ((cc.url === undefined) === (cc.service === undefined)) errs.push(field.required(ccFld, "exactly one of url or service is required"));
  else if (cc.url !== undefined) errs.push(...validateWebhookURL(path(ccFld, "url"), cc.url, true));
  else if (cc.service)
    errs.push(
      ...validateWebhookService(path(ccFld, "service"), cc.service.name, cc.service.namespace, cc.service.path, cc.service.port ?? 0),
    );
  if (!opts.ignoreMatchConditions)
    errs.push(...validateMatchConditions(w.matchConditions ?? [], opts.compile, path(fld, "matchConditions")));
  return errs;
}

function validateConfiguration(
  c: { metadata: ValidatingWebhookConfiguration["metadata"]; webhooks?: MutatingWebhook[] | undefined },
  opts: WebhookValidationOptions,
  mutating: boolean,
): FieldErrorList {
  const errs = validateObjectMeta(c.metadata, { namespaced: false });
  const names = new Set<string>();
  (c.webhooks ?? []).forEach((w, i) => {
    const fld = path("webhooks", i);
    errs.push(...validateWebhook(w, opts, fld, mutating));
    errs.push(
      ...validateAdmissionReviewVersions(
        w.admissionReviewVersions ?? [],
        opts.requireRecognizedAdmissionReviewVersion,
        path(fld, "admissionReviewVersions"),
      ),
    );
    if (opts.requireUniqueWebhookNames && w.name !== "") {
      if (names.has(w.name)) errs.push(field.duplicate(path(fld, "name"), w.name));
      names.add(w.name);
    }
  });
  return errs;
}

/** The relaxations an update earns from what is stored (ValidateValidatingWebhookConfigurationUpdate). */
function updateOptions(
  hooks: readonly ValidatingWebhook[],
  old: readonly ValidatingWebhook[],
  compile?: ExpressionCompiler,
): WebhookValidationOptions {
  const sameConditions =
    hooks.length === old.length && hooks.every((w, i) => JSON.stringify(w.matchConditions) === JSON.stringify(old[i]?.matchConditions));
  return {
    ignoreMatchConditions: sameConditions,
    requireNoSideEffects: old.every((w) => w.sideEffects !== undefined && noSideEffectClasses.includes(w.sideEffects)),
    requireRecognizedAdmissionReviewVersion: old.every(
      (w) =>
        (w.admissionReviewVersions ?? []).length === 0 ||
        (w.admissionReviewVersions ?? []).some((v) => acceptedAdmissionReviewVersions.includes(v)),
    ),
    requireUniqueWebhookNames: new Set(old.map((w) => w.name)).size === old.length,
    compile,
  };
}

/** ValidateValidatingWebhookConfiguration. */
export function validateValidatingWebhookConfiguration(c: ValidatingWebhookConfiguration, compile?: ExpressionCompiler): FieldErrorList {
  return validateConfiguration(c, createOptions(compile), false);
}

/** ValidateValidatingWebhookConfigurationUpdate. */
export function validateValidatingWebhookConfigurationUpdate(
  c: ValidatingWebhookConfiguration,
  old: ValidatingWebhookConfiguration,
  compile?: ExpressionCompiler,
): FieldErrorList {
  return validateConfiguration(c, updateOptions(c.webhooks ?? [], old.webhooks ?? [], compile), false);
}

/** ValidateMutatingWebhookConfiguration. */
export function validateMutatingWebhookConfiguration(c: MutatingWebhookConfiguration, compile?: ExpressionCompiler): FieldErrorList {
  return validateConfiguration(c, createOptions(compile), true);
}

/** ValidateMutatingWebhookConfigurationUpdate. */
export function validateMutatingWebhookConfigurationUpdate(
  c: MutatingWebhookConfiguration,
  old: MutatingWebhookConfiguration,
  compile?: ExpressionCompiler,
): FieldErrorList {
  return validateConfiguration(c, updateOptions(c.webhooks ?? [], old.webhooks ?? [], compile), true);
}
