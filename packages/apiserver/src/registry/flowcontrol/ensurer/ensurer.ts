/**
 * The APF config-producer (pkg/registry/flowcontrol/ensurer and rest/storage_flowcontrol.go's
 * bootstrap hook): every bootstrap FlowSchema and PriorityLevelConfiguration is created when
 * missing (annotated `apf.kubernetes.io/autoupdate-spec: "true"`); an existing one gets the
 * bootstrap spec back when it is mandatory, or when its annotation says true (or, without a
 * parsable annotation, while its generation is 1: no one but the producer ever changed it).
 */
import { semanticEqual, StatusError } from "@servicenet/api";
import {
  autoUpdateAnnotationKey,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
} from "@servicenet/api/flowcontrol/v1";
import type { KubeObject } from "../../../storage/index.ts";
import type { GenericStore } from "../../generic/store.ts";

interface BootstrapObject {
  metadata: { name?: string | undefined; annotations?: Record<string, string> | undefined };
  spec?: unknown;
}

/** shouldUpdateSpec: the annotation's boolean, else whether the producer alone ever wrote the object. */
export function shouldUpdateSpec(meta: KubeObject["metadata"]): boolean {
  const value = (meta.annotations as Record<string, string> | undefined)?.[autoUpdateAnnotationKey];
  if (value !== undefined && /^(1|t|T|TRUE|true|True)$/.test(value)) return true;
  if (value !== undefined && /^(0|f|F|FALSE|false|False)$/.test(value)) return false;
  return meta.generation === 1;
}

async function ensure(store: GenericStore, wanted: BootstrapObject, mandatory: boolean): Promise<void> {
  const name = wanted.metadata.name ?? "";
  let existing: KubeObject | undefined;
  try {
    existing = await store.get(undefined, name);
  } catch (e) {
    if (!(e instanceof StatusError && e.reason === "NotFound")) throw e;
  }
  if (existing === undefined) {
    const obj = structuredClone(wanted) as unknown as KubeObject;
    obj.metadata.annotations = { ...wanted.metadata.annotations, [autoUpdateAnnotationKey]: "true" };
    try {
      await store.create(undefined, obj);
    } catch (e) {
      // Another apiserver created it first.
      if (!(e instanceof StatusError && e.reason === "AlreadyExists")) throw e;
    }
    return;
  }
  if (!mandatory && !shouldUpdateSpec(existing.metadata)) return;
  // Compare with the defaulted form the store holds.
  const probe = structuredClone(wanted) as unknown as KubeObject;
  store.strategy.defaults?.(probe);
  const annotations = (existing.metadata.annotations as Record<string, string> | undefined) ?? {};
  if (semanticEqual(existing["spec"], probe["spec"]) && annotations[autoUpdateAnnotationKey] === "true") return;
  await store.update(undefined, name, (current) => {
    const next = structuredClone(current ?? existing);
    next["spec"] = probe["spec"];
    next.metadata.annotations = {
      ...(next.metadata.annotations ?? {}),
      [autoUpdateAnnotationKey]: "true",
    };
    return Promise.resolve(next);
  });
}

/** EnsureConfigurations: the mandatory and suggested objects, priority levels first. */
export async function ensureAPFBootstrapConfiguration(stores: ReadonlyMap<string, GenericStore>): Promise<void> {
  const pls = stores.get("prioritylevelconfigurations");
  const fss = stores.get("flowschemas");
  if (pls === undefined || fss === undefined) return;
  for (const pl of mandatoryPriorityLevelConfigurations()) await ensure(pls, pl, true);
  for (const pl of suggestedPriorityLevelConfigurations()) await ensure(pls, pl, false);
  for (const fs of mandatoryFlowSchemas()) await ensure(fss, fs, true);
  for (const fs of suggestedFlowSchemas()) await ensure(fss, fs, false);
}
