/**
 * The audit annotations of one mutating webhook call (admission/plugin/webhook/mutating/dispatcher.go
 * webhookAnnotator, mutationAnnotationValue, jsonPatchAnnotationValue), keyed by the round
 * (1 when reinvoked) and the webhook's index among the hooks:
 * - `mutation.webhook.admission.k8s.io/round_R_index_I`: `{"configuration","webhook","mutated"}`
 *   for every call (Metadata level);
 * - `patch.webhook.admission.k8s.io/round_R_index_I`: `{"configuration","webhook","patch","patchType"}`
 *   for every non-empty JSON patch applied, kept only in events of level Request or above, as the
 *   patch may carry what the request body carried;
 * - `failed-open.mutation.webhook.admission.k8s.io/round_R_index_I`: the webhook's name, when a
 *   failed call was ignored (failurePolicy Ignore).
 */
import { stringifyJSON } from "../../../../util/json/json.ts";
import { addAnnotationWithLevel } from "../../../audit-annotations.ts";
import type { AdmissionContext } from "../../../interfaces.ts";

/** PatchAuditAnnotationPrefix. */
export const patchAuditAnnotationPrefix = "patch.webhook.admission.k8s.io/";
/** MutationAuditAnnotationPrefix. */
export const mutationAuditAnnotationPrefix = "mutation.webhook.admission.k8s.io/";
/** MutationAuditAnnotationFailedOpenKeyPrefix. */
export const mutationAuditAnnotationFailedOpenKeyPrefix = `failed-open.${mutationAuditAnnotationPrefix}`;

/**
 * encoding/json's escaping of what JSON.stringify leaves as is: `<`, `>` and `&` (HTML-safe
 * output, the default of json.Marshal and of the RawMessage values it compacts) and U+2028/U+2029.
 * These only occur inside strings, so the whole text can be rewritten.
 */
function goEscape(text: string): string {
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A JSON patch as json.Marshal writes jsonpatch.Patch: each operation is a
 * map[string]*json.RawMessage, so its members come out in sorted key order.
 */
function patchJSON(ops: unknown): string {
  if (!Array.isArray(ops)) return stringifyJSON(ops);
  const parts = ops.map((op) => {
    if (op === null || typeof op !== "object" || Array.isArray(op)) return stringifyJSON(op);
    const o = op as Record<string, unknown>;
    const members = Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stringifyJSON(o[k])}`);
    return `{${members.join(",")}}`;
  });
  return `[${parts.join(",")}]`;
}

/** webhookAnnotator: writes one call's annotations into the request's admission context. */
export class WebhookAnnotator {
  readonly #ctx: AdmissionContext;
  readonly #suffix: string;
  readonly #webhook: string;
  readonly #configuration: string;

  constructor(ctx: AdmissionContext, round: number, index: number, webhook: string, configuration: string) {
    this.#ctx = ctx;
    this.#suffix = `round_${round}_index_${index}`;
    this.#webhook = webhook;
    this.#configuration = configuration;
  }

  /** addFailedOpenAnnotation. */
  addFailedOpenAnnotation(): void {
    addAnnotationWithLevel(this.#ctx, mutationAuditAnnotationFailedOpenKeyPrefix + this.#suffix, this.#webhook, "Metadata");
  }

  /** addMutationAnnotation (mutationAnnotationValue: MutationAuditAnnotation's fields in order). */
  addMutationAnnotation(mutated: boolean): void {
    const value = `{"configuration":${JSON.stringify(this.#configuration)},"webhook":${JSON.stringify(this.#webhook)},"mutated":${mutated}}`;
    addAnnotationWithLevel(this.#ctx, mutationAuditAnnotationPrefix + this.#suffix, goEscape(value), "Metadata");
  }

  /** addPatchAnnotation of a JSON patch (jsonPatchAnnotationValue), at level Request. */
  addPatchAnnotation(ops: unknown): void {
    const value =
      `{"configuration":${JSON.stringify(this.#configuration)},"webhook":${JSON.stringify(this.#webhook)},` +
      `"patch":${patchJSON(ops)},"patchType":"JSONPatch"}`;
    addAnnotationWithLevel(this.#ctx, patchAuditAnnotationPrefix + this.#suffix, goEscape(value), "Request");
  }
}
