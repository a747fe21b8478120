/**
 * The CRD REST storage (apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go): the
 * first DELETE only marks the CRD deleting, adds the `customresourcecleanup.apiextensions.k8s.io`
 * finalizer and sets Terminating, so the finalizer controller can delete every custom resource
 * before the CRD goes; a DELETE of a CRD already deleting is the generic one.
 */
import { setCRDCondition, type CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { nowRFC3339 } from "../../../registry/generic/names.ts";
import type { DeleteParams, DeleteResult } from "../../../registry/generic/options.ts";
import { GenericStore } from "../../../registry/generic/store.ts";

/** apiextensions.CustomResourceCleanupFinalizer. */
export const customResourceCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

export class CustomResourceDefinitionREST extends GenericStore {
  override async delete(namespace: string | undefined, name: string, p: DeleteParams = {}): Promise<DeleteResult> {
    const current = await this.get(undefined, name);
    await p.deleteValidation?.(current);
    if (current.metadata.deletionTimestamp) return super.delete(namespace, name, { ...p, deleteValidation: undefined });
    const now = nowRFC3339();
    const object = await this.storageGuaranteedUpdate(
      undefined,
      name,
      (existing) => {
        const crd = structuredClone(existing) as unknown as CustomResourceDefinition;
        crd.metadata.deletionTimestamp = now;
        const finalizers = crd.metadata.finalizers ?? [];
        if (!finalizers.includes(customResourceCleanupFinalizer)) crd.metadata.finalizers = [...finalizers, customResourceCleanupFinalizer];
        setCRDCondition(
          crd,
          {
            type: "Terminating",
            status: "True",
            reason: "InstanceDeletionPending",
            message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
          },
          now,
        );
        return crd;
      },
      { ...(p.preconditions ? { preconditions: p.preconditions } : {}), ...(p.dryRun ? { dryRun: true } : {}) },
    );
    return { object, deleted: false };
  }
}
