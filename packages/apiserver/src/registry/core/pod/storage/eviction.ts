/**
 * The `pods/eviction` subresource, upstream's pkg/registry/core/pod/storage/eviction.go
 * `EvictionREST`: POST a policy/v1 (or v1beta1) Eviction to delete a Pod only when its
 * PodDisruptionBudget allows it. A terminal, pending or deleting Pod is deleted directly; otherwise
 * the one matching budget's `disruptionsAllowed` is decremented (its status records the Pod in
 * `disruptedPods`) before the Pod gets the `DisruptionTarget` condition and is deleted.
 */
import { StatusError, type DeleteOptions, type Preconditions } from "@servicenet/api";
import { EvictionSchema, type Eviction } from "@servicenet/api/policy/v1";
import type { KubeObject } from "../../../../storage/index.ts";
import type { DeleteParams, WriteParams } from "../../../generic/options.ts";
import type { GenericStore } from "../../../generic/store.ts";
import type { SubresourceCreate } from "./binding.ts";
import { updatePodCondition } from "./binding.ts";
import { checkAndDecrement, getPodDisruptionBudgets, isPodReady, tooManyRequests, type PDB } from "./eviction-pdb.ts";

/** `EvictionsRetry`: 20 steps of 500 ms (jitter 0.1) for conflicts. */
export interface Backoff {
  steps: number;
  durationMs: number;
}
export const evictionsRetry: Backoff = { steps: 20, durationMs: 500 };

const success = (): KubeObject => ({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });

const isConflict = (e: unknown): boolean => e instanceof StatusError && e.reason === "Conflict";

/** client-go retry.OnError: runs `fn` until it succeeds, fails with an error `retriable` refuses, or the steps run out. */
async function onError<T>(backoff: Backoff, retriable: (e: unknown) => boolean, fn: () => Promise<T>): Promise<T> {
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (e) {
      if (!retriable(e) || step >= backoff.steps) throw e;
      const jitter = 1 + Math.random() * 0.1;
      await new Promise((r) => setTimeout(r, backoff.durationMs * jitter));
    }
  }
}

/** `propagateDryRun`: the request's dryRun joins the body's DeleteOptions; a different non-empty pair is an error. */
export function propagateDryRun(eviction: Eviction, dryRun: boolean): DeleteOptions {
  const query = dryRun ? ["All"] : [];
  const opts = eviction.deleteOptions;
  if (opts === undefined) return query.length > 0 ? { dryRun: query } : {};
  const body = opts.dryRun ?? [];
  if (body.length === 0) return query.length > 0 ? { ...opts, dryRun: query } : opts;
  if (query.length === 0) return opts;
  if (JSON.stringify(query) !== JSON.stringify(body))
    throw StatusError.unknown(`Non-matching dry-run options in request and content: [${query.join(" ")}] and [${body.join(" ")}]`);
  return opts;
}

const phaseOf = (pod: KubeObject): string => ((pod["status"] ?? {}) as { phase?: string }).phase ?? "";

/** `canIgnorePDB`: terminal, pending and deleting Pods are deleted without a budget check. */
export function canIgnorePDB(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === "Succeeded" || phase === "Failed" || phase === "Pending" || pod.metadata.deletionTimestamp !== undefined;
}

/** `shouldEnforceResourceVersion`: every Pod but a terminal or deleting one may turn ready meanwhile. */
function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !(phase === "Succeeded" || phase === "Failed" || pod.metadata.deletionTimestamp !== undefined);
}

const resourceVersionIsUnset = (o: DeleteOptions): boolean => o.preconditions?.resourceVersion === undefined;

const withResourceVersion = (o: DeleteOptions, rv: string | undefined): DeleteOptions => ({
  ...o,
  preconditions: { ...o.preconditions, resourceVersion: rv ?? "" },
});

const isDryRun = (o: DeleteOptions): boolean => (o.dryRun ?? []).length > 0;

function deleteParams(o: DeleteOptions): DeleteParams {
  const preconditions: Preconditions = { ...o.preconditions };
  return {
    ...(o.preconditions !== undefined ? { preconditions } : {}),
    ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
    ...(o.propagationPolicy !== undefined ? { propagationPolicy: o.propagationPolicy } : {}),
    ...(o.orphanDependents !== undefined ? { orphanDependents: o.orphanDependents } : {}),
    ...(isDryRun(o) ? { dryRun: true } : {}),
  };
}

/**
 * `addConditionAndDeletePod`: the Pod gets `DisruptionTarget=True` (EvictionByEvictionAPI) through
 * the status strategy, after the preconditions are checked against the latest Pod; then the delete
 * runs with the resourceVersion that update produced. A dry run only deletes (dry).
 */
async function addConditionAndDeletePod(
  pods: GenericStore,
  namespace: string | undefined,
  name: string,
  options: DeleteOptions,
): Promise<void> {
  if (!isDryRun(options)) {
    const { object } = await pods.update(
      namespace,
      name,
      async (cur) => {
        const latest = structuredClone(cur!);
        const uid = options.preconditions?.uid;
        if (uid !== undefined && uid !== "" && uid !== latest.metadata.uid)
          throw StatusError.conflict(
            { group: "", resource: "Pod" },
            name,
            `the UID in the precondition (${uid}) does not match the UID in record (${latest.metadata.uid ?? ""}). The object might have been deleted and then recreated`,
          );
        const rv = options.preconditions?.resourceVersion;
        if (rv !== undefined && rv !== "" && rv !== latest.metadata.resourceVersion)
          throw StatusError.conflict(
            { group: "", resource: "Pod" },
            name,
            `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion ?? ""}). The object might have been modified`,
          );
        const status = (latest["status"] ?? {}) as Record<string, unknown>;
        updatePodCondition(status, {
          type: "DisruptionTarget",
          status: "True",
          reason: "EvictionByEvictionAPI",
          message: "Eviction API: evicting",
        });
        latest["status"] = status;
        return latest;
      },
      { subresource: "status" },
    );
    if (!resourceVersionIsUnset(options)) options = withResourceVersion(options, object.metadata.resourceVersion);
  }
  await pods.delete(namespace, name, deleteParams(options));
}

/** `EvictionREST.Create`. */
async function createEviction(
  pods: GenericStore,
  pdbs: () => GenericStore,
  namespace: string | undefined,
  name: string,
  body: KubeObject,
  p: WriteParams,
  backoff: Backoff,
): Promise<KubeObject> {
  const eviction = body as unknown as Eviction;
  if ((eviction.metadata.name ?? "") !== name) throw StatusError.badRequest("name in URL does not match name in Eviction object");
  const original = propagateDryRun(eviction, p.dryRun === true);
  await p.createValidation?.(structuredClone(body));

  let pod: KubeObject | undefined;
  let deleted = false;
  // A caller's resourceVersion precondition is not retried.
  const retriable = resourceVersionIsUnset(original) ? isConflict : () => false;
  await onError(backoff, retriable, async () => {
    pod = await pods.get(namespace, name);
    if (!canIgnorePDB(pod)) return;
    let options = original;
    if (shouldEnforceResourceVersion(pod) && resourceVersionIsUnset(original))
      options = withResourceVersion(original, pod.metadata.resourceVersion);
    await addConditionAndDeletePod(pods, namespace, name, options);
    deleted = true;
  });
  if (deleted) return success();

  const matching = await getPodDisruptionBudgets(pdbs(), pod!);
  if (matching.length > 1)
    // A Status of code 500 returned (not an error): upstream's rtStatus, whose reason is empty.
    throw StatusError.unknown("This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
  let updateDeletionOptions = false;
  let pdbName = "";
  if (matching.length === 1) {
    let pdb: PDB = matching[0]!;
    pdbName = pdb.metadata.name ?? "";
    if (!isPodReady(pod!)) {
      // An unhealthy Pod does not count towards currentHealthy: deleting it disrupts nothing.
      if (pdb.spec.unhealthyPodEvictionPolicy === "AlwaysAllow") updateDeletionOptions = true;
      else if (pdb.status !== undefined && pdb.status.currentHealthy >= pdb.status.desiredHealthy && pdb.status.desiredHealthy > 0)
        updateDeletionOptions = true;
    }
    if (!updateDeletionOptions) {
      // retry.RetryOnConflict: a 429 ends the loop; the last conflict is the answer when the steps run out.
      let refresh = false;
      await onError(backoff, isConflict, async () => {
        if (refresh) pdb = (await pdbs().get(namespace, pdbName)) as unknown as PDB;
        refresh = true;
        await checkAndDecrement(pdbs(), pod!.metadata.name ?? "", pdb, isDryRun(original));
      });
    }
  }

  // The Pod must not have turned ready since the budget was read.
  const options = updateDeletionOptions ? withResourceVersion(original, pod!.metadata.resourceVersion) : original;
  try {
    await addConditionAndDeletePod(pods, namespace, name, options);
  } catch (e) {
    if (isConflict(e) && updateDeletionOptions && resourceVersionIsUnset(original)) throw tooManyRequests(pdbName);
    throw e;
  }
  return success();
}

/** `pods/eviction`, reading budgets from the PodDisruptionBudget storage `pdbs` returns. */
export function newEvictionREST(pdbs: () => GenericStore, backoff: Backoff = evictionsRetry): SubresourceCreate {
  return {
    kind: "Eviction",
    group: "policy",
    version: "v1",
    acceptsVersions: ["v1", "v1beta1"],
    schema: EvictionSchema,
    create: (pods, namespace, name, body, p) => createEviction(pods, pdbs, namespace, name, body, p, backoff),
  };
}
