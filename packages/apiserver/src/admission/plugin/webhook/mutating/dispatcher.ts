/**
 * The mutating webhook dispatcher (admission/plugin/webhook/mutating/dispatcher.go Dispatch,
 * callAttrMutatingHook, and reinvocationcontext.go): matching webhooks are called one after
 * another, each seeing the object as the ones before it left it; a JSONPatch answer is applied to
 * the object in place. When a webhook changed the object it asks the chain for a second pass
 * (admission/reinvocation.go): the in-tree plugins run again, then the webhooks with
 * reinvocationPolicy IfNeeded called before the change (all of them, when an in-tree plugin changed
 * the object since the webhooks last saw it) are called once more.
 * A webhook matched through an equivalent resource patches the object in its own version, which is
 * then converted back.
 */
import { semanticEqual, StatusError } from "@servicenet/api";
import type { KubeObject } from "../../../../storage/index.ts";
import { applyJSONPatch } from "../../../../server/patch/json-patch.ts";
import type { JSONValue } from "../../../../server/patch/json-value.ts";
import type { Authorizer } from "../../../../authorization/authorizer/interfaces.ts";
import type { Attributes } from "../../../attributes.ts";
import { convertBack, replaceObject } from "../../../conversion.ts";
import type { EquivalentResourceMapper } from "../../../equivalent-resources.ts";
import type { AdmissionContext } from "../../../interfaces.ts";
import { ErrCallingWebhook } from "../errors/errors.ts";
import type { AdmissionWebhookMetrics } from "../../../metrics/metrics.ts";
import { callFailure, callHook, pastDeadline, requestTimedOut, type WebhookPoster } from "../generic/call-hook.ts";
import { invocationAttributes, matchConditionsWithAuthorizer, namespaceLabels, webhookMatches } from "../generic/should-call-hook.ts";
import type { Dispatcher } from "../generic/plugin.ts";
import type { WebhookAccessor } from "../generic/source.ts";
import { parseJSON, stringifyJSON } from "../../../../util/json/json.ts";
import { WebhookAnnotator } from "./annotator.ts";

/** reinvocationcontext.go webhookReinvokeContext. */
interface ReinvokeContext {
  previouslyInvokedReinvocable: Set<string>;
  reinvoke: Set<string>;
  shouldReinvoke: boolean;
  /** The object as the last webhook left it (SetLastWebhookInvocationOutput). */
  lastWebhookOutput?: unknown;
}

/** The key of the webhooks' state in the chain's ReinvocationContext (upstream's PluginName). */
const reinvocationKey = "MutatingAdmissionWebhook";

/**
 * The patch's operations; undefined for an empty patch, which changes nothing and is not annotated.
 * Upstream applies the patch to the object's JSON bytes and decodes the result into an Unstructured
 * for a custom resource, so an int64 the patch writes keeps its digits: such a patch is read as
 * util/json reads it.
 */
function decodePatch(a: Attributes, patchText: string): unknown[] | undefined {
  let ops: unknown;
  try {
    ops = a.unstructured === true ? parseJSON(patchText) : (JSON.parse(patchText) as unknown);
  } catch (e) {
    throw StatusError.internal((e as Error).message, e);
  }
  return Array.isArray(ops) && ops.length === 0 ? undefined : (ops as unknown[]);
}

/** Applies a webhook's decoded patch to `a.object`; true when the object changed. */
function applyPatch(a: Attributes, ops: unknown): boolean {
  if (a.object === undefined) return false;
  let patched: JSONValue;
  try {
    patched = applyJSONPatch(a.object as unknown as JSONValue, ops);
  } catch (e) {
    throw StatusError.internal((e as Error).message, e);
  }
  const before = stringifyJSON(a.object);
  replaceObject(a.object, patched as unknown as KubeObject);
  return stringifyJSON(a.object) !== before;
}

/** What a round hands each call besides the hook and the attributes. */
interface CallDeps {
  nsObject: unknown;
  post: WebhookPoster | undefined;
  metrics: AdmissionWebhookMetrics | undefined;
  authorizer: Authorizer | undefined;
  mapper: EquivalentResourceMapper | undefined;
}

/**
 * Calls `h` with `v`, the request as its version sees it; a patch is applied to `v`'s object and,
 * when that is a converted copy, converted back into the request's object.
 */
async function callMutatingHook(
  h: WebhookAccessor,
  a: Attributes,
  v: Attributes,
  ctx: AdmissionContext,
  d: CallDeps,
  annotator: WebhookAnnotator,
): Promise<{ called: boolean; changed: boolean }> {
  const m = await matchConditionsWithAuthorizer(h, v, d.nsObject, d.authorizer);
  if ("error" in m) throw new ErrCallingWebhook(h.webhook.name, m.error);
  if (!m.matches) return { called: false, changed: false };
  let changed = false;
  // callAttrMutatingHook's deferred addMutationAnnotation: written for every call, failed ones too.
  try {
    const result = await callHook(h, v, ctx, true, d.post, d.metrics);
    const ops = result.patch !== undefined ? decodePatch(v, result.patch) : undefined;
    if (ops === undefined || v.object === undefined) return { called: true, changed: false };
    changed = applyPatch(v, ops);
    annotator.addPatchAnnotation(ops);
  } catch (e) {
    // Only a failed call fails open with an annotation (a matchCondition error under Ignore is a
    // non-match upstream: matchconditions.Matcher).
    if (e instanceof ErrCallingWebhook && h.webhook.failurePolicy === "Ignore") annotator.addFailedOpenAnnotation();
    throw e;
  } finally {
    annotator.addMutationAnnotation(changed);
  }
  if (changed) convertBack(a, v, d.mapper);
  return { called: true, changed };
}

async function runRound(
  round: number,
  hooks: readonly WebhookAccessor[],
  a: Attributes,
  ctx: AdmissionContext,
  rc: ReinvokeContext,
  namespace: (name: string) => unknown,
  deps: Omit<CallDeps, "nsObject">,
): Promise<void> {
  const d: CallDeps = { ...deps, nsObject: a.namespace !== "" ? namespace(a.namespace) : undefined };
  for (const [i, h] of hooks.entries()) {
    const matched = webhookMatches(h, a, namespaceLabels(a, namespace), d.mapper);
    if (!matched) continue;
    // A webhook is never called for the first time in the reinvocation round.
    if (round > 0 && !rc.reinvoke.has(h.uid)) continue;
    // Converted afresh for each hook: the previous one may have changed the request's object.
    const v = invocationAttributes(a, matched, d.mapper);
    const annotator = new WebhookAnnotator(ctx, round, i, h.webhook.name, h.configurationName);
    let outcome: { called: boolean; changed: boolean };
    try {
      outcome = await callMutatingHook(h, a, v, ctx, d, annotator);
    } catch (e) {
      if (!(e instanceof ErrCallingWebhook)) throw e;
      if (h.webhook.failurePolicy !== "Ignore") throw callFailure(e);
      // Failing open, unless the request itself ran out of time: then no later webhook is called.
      if (pastDeadline(ctx)) throw requestTimedOut();
      outcome = { called: false, changed: false };
    }
    if (outcome.changed) {
      // RequireReinvokingPreviouslyInvokedPlugins: those called before this one may want another look.
      for (const uid of rc.previouslyInvokedReinvocable) rc.reinvoke.add(uid);
      rc.previouslyInvokedReinvocable.clear();
      rc.shouldReinvoke = true;
    }
    if (h.webhook.reinvocationPolicy === "IfNeeded") rc.previouslyInvokedReinvocable.add(h.uid);
  }
}

/** Runs the mutating webhooks of `hooks` that match `a`, mutating `a.object`; throws the first refusal. */
export const dispatchMutating: Dispatcher = async (hooks, a, ctx, namespace, post, metrics, authorizer, mapper) => {
  const deps = { post, metrics, authorizer, mapper };
  const chain = a.reinvocationContext;
  const fresh = (): ReinvokeContext => ({ previouslyInvokedReinvocable: new Set(), reinvoke: new Set(), shouldReinvoke: false });
  if (chain === undefined) {
    // Called outside a chain: both rounds here.
    const rc = fresh();
    await runRound(0, hooks, a, ctx, rc, namespace, deps);
    if (rc.shouldReinvoke && rc.reinvoke.size > 0) await runRound(1, hooks, a, ctx, rc, namespace, deps);
    return;
  }
  const kept = chain.values.get(reinvocationKey) as ReinvokeContext | undefined;
  if (!chain.isReinvoke || kept === undefined) {
    const rc = fresh();
    chain.values.set(reinvocationKey, rc);
    await runRound(0, hooks, a, ctx, rc, namespace, deps);
    rc.lastWebhookOutput = structuredClone(a.object);
    if (rc.shouldReinvoke) chain.shouldReinvoke = true;
    return;
  }
  // IsOutputChangedSinceLastWebhookInvocation: an in-tree plugin changed it in the second pass.
  if (!semanticEqual(kept.lastWebhookOutput, a.object)) {
    for (const uid of kept.previouslyInvokedReinvocable) kept.reinvoke.add(uid);
    kept.previouslyInvokedReinvocable.clear();
  }
  if (kept.reinvoke.size > 0) await runRound(1, hooks, a, ctx, kept, namespace, deps);
  kept.lastWebhookOutput = structuredClone(a.object);
};
