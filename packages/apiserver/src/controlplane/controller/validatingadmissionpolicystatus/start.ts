/**
 * Starting the ValidatingAdmissionPolicy status controller inside the apiserver
 * (cmd/kube-controller-manager/app/validatingadmissionpolicystatus.go startValidatingAdmissionPolicyStatusController):
 * its type checker resolves schemas from the OpenAPI v3 documents the server serves, custom
 * resources included, and kinds from the resources it serves.
 */
import type { ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import type { Logger } from "@servicenet/component-base/logs";
import { TypeChecker } from "../../../admission/plugin/policy/validating/typechecking.ts";
import type { KindsFor } from "../../../admission/plugin/policy/validating/types-to-check.ts";
import { documentsSchemaResolver } from "../../../apiserver/cel/openapi/resolver/resolver.ts";
import { validatingAdmissionPolicyStoragePath } from "../../../registry/admissionregistration/rest/storage-admissionregistration.ts";
import type { GenericStore } from "../../../registry/generic/store.ts";
import type { KubeObject, Store } from "../../../storage/index.ts";
import { StoreInformer } from "../../../util/informer/store-informer.ts";
import { ValidatingAdmissionPolicyStatusController } from "./controller.ts";

export interface PolicyStatusDeps {
  store: Store;
  /** The REST store of validatingadmissionpolicies. */
  policies: GenericStore;
  /** The served resources, custom resources included. */
  served: () => readonly { group: string; version: string; resource: string; kind: string }[];
  /** The /openapi/v3 documents by group version (`api/v1`, `apis/apps/v1`). */
  openAPIV3: () => ReadonlyMap<string, { [key: string]: unknown }>;
  logger?: Logger;
}

/** Starts the controller; the returned stop ends it. */
export function startPolicyStatusController(d: PolicyStatusDeps): { stop(): void } {
  const kindsFor: KindsFor = (gvr) =>
    d
      .served()
      .filter((r) => r.group === gvr.group && r.version === gvr.version && r.resource === gvr.resource)
      .map((r) => ({ group: r.group, version: r.version, kind: r.kind }));
  const controller = new ValidatingAdmissionPolicyStatusController({
    policies: new StoreInformer<ValidatingAdmissionPolicy & KubeObject>(
      d.store,
      validatingAdmissionPolicyStoragePath,
      d.logger ? { logger: d.logger } : {},
    ),
    store: d.policies,
    typeChecker: new TypeChecker(documentsSchemaResolver(d.openAPIV3), kindsFor),
    ...(d.logger ? { logger: d.logger } : {}),
  });
  void controller.run();
  return { stop: () => controller.stop() };
}
