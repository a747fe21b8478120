/**
 * The `pods/binding` subresource, upstream's pkg/registry/core/pod/storage/storage.go `BindingREST`:
 * POST a Binding to assign a Pod to a Node. The Pod is updated in storage directly (no strategy),
 * setting `spec.nodeName` and a `PodScheduled=True` condition; a Pod already bound or being
 * deleted answers 409 Conflict on `pods/binding`.
 */
import { aggregateMessage, BindingSchema, StatusError, validatePodBinding, type Binding } from "@servicenet/api";
import type { KubeObject, Preconditions } from "../../../../storage/index.ts";
import { nowRFC3339 } from "../../../generic/names.ts";
import type { WriteParams } from "../../../generic/options.ts";
import type { GenericStore } from "../../../generic/store.ts";

/** A subresource served by POST (create) on an existing object. */
export interface SubresourceCreate {
  /** The request body's kind and zod schema. */
  kind: string;
  /** The kind's group version when not the parent's (serviceaccounts/token: authentication.k8s.io/v1 TokenRequest). */
  group?: string;
  version?: string;
  /**
   * Other versions of the kind's group a body may come in (rest.GroupVersionAcceptor: pods/eviction
   * takes policy/v1beta1 Evictions too); decoded with the same schema.
   */
  acceptsVersions?: readonly string[];
  schema: unknown;
  /** Acts on `name`; returns the answer (201). */
  create(store: GenericStore, namespace: string | undefined, name: string, body: KubeObject, p: WriteParams): Promise<KubeObject>;
}

interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** podutil `UpdatePodCondition`: add or replace the condition, keeping lastTransitionTime when the status is unchanged. */
export function updatePodCondition(status: Record<string, unknown>, condition: PodCondition, now = nowRFC3339()): void {
  const conditions = (status["conditions"] as PodCondition[] | undefined) ?? [];
  const i = conditions.findIndex((c) => c.type === condition.type);
  const old = conditions[i];
  const next = { ...condition, lastTransitionTime: old !== undefined && old.status === condition.status ? old.lastTransitionTime : now };
  if (old === undefined) conditions.push(next);
  else conditions[i] = { ...old, ...next };
  status["conditions"] = conditions;
}

/** The reason a Pod may not be bound (`setPodNodeName`'s checks), or undefined. */
function bindRefusal(pod: KubeObject): string | undefined {
  const name = pod.metadata.name ?? "";
  const spec = (pod["spec"] ?? {}) as { nodeName?: string; schedulingGates?: unknown[] };
  if (pod.metadata.deletionTimestamp !== undefined) return `pod ${name} is being deleted, cannot be assigned to a host`;
  if ((spec.nodeName ?? "") !== "") return `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`;
  if ((spec.schedulingGates ?? []).length !== 0) return `pod ${name} has non-empty .spec.schedulingGates`;
  return undefined;
}

/** `BindingREST.Create`: validates the Binding and assigns the Pod (`assignPod` / `setPodNodeName`). */
async function createBinding(store: GenericStore, namespace: string | undefined, name: string, body: KubeObject, p: WriteParams) {
  const binding = body as unknown as Binding;
  if ((binding.metadata.name ?? "") !== name) throw StatusError.badRequest("name in URL does not match name in Binding object");
  const errs = validatePodBinding(binding);
  // Upstream returns the aggregate as a plain error: a 500 with an empty reason.
  if (errs.length > 0) throw StatusError.unknown(aggregateMessage(errs));
  // Validating admission sees a copy of the Binding, after its validation.
  await p.createValidation?.(structuredClone(body));
  const preconditions: Preconditions = {
    ...(binding.metadata.uid ? { uid: binding.metadata.uid } : {}),
    ...(binding.metadata.resourceVersion ? { resourceVersion: binding.metadata.resourceVersion } : {}),
  };
  let refusal: string | undefined;
  await store.storageGuaranteedUpdate(
    namespace,
    name,
    (cur) => {
      refusal = bindRefusal(cur);
      if (refusal !== undefined) return cur;
      const pod = structuredClone(cur);
      (pod["spec"] as Record<string, unknown>)["nodeName"] = binding.target.name;
      const annotations = binding.metadata.annotations ?? {};
      if (Object.keys(annotations).length > 0) pod.metadata["annotations"] = { ...(pod.metadata["annotations"] ?? {}), ...annotations };
      const status = (pod["status"] ?? {}) as Record<string, unknown>;
      updatePodCondition(status, { type: "PodScheduled", status: "True" });
      pod["status"] = status;
      return pod;
    },
    { ...(Object.keys(preconditions).length > 0 ? { preconditions } : {}), ...(p.dryRun ? { dryRun: true } : {}) },
  );
  if (refusal !== undefined) throw StatusError.conflict({ group: "", resource: "pods/binding" }, name, refusal);
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 } as unknown as KubeObject;
}

/** `pods/binding`. */
export const podBindingREST: SubresourceCreate = { kind: "Binding", schema: BindingSchema, create: createBinding };
