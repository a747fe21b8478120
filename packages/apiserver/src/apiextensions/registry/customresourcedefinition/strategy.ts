/**
 * CustomResourceDefinition REST strategy (apiextensions-apiserver
 * pkg/registry/customresourcedefinition/strategy.go): the status is the controllers' (cleared on
 * create, kept on update), generation follows spec changes, and the storage version is recorded
 * in `status.storedVersions` on every write.
 */
import {
  setDefaultsCustomResourceDefinition,
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
  type CustomResourceDefinition,
} from "@servicenet/api/apiextensions/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { bumpGeneration, type RESTStrategy } from "../../../registry/generic/strategy.ts";
import { compileValidationRules } from "../../apiserver/schema/cel/compilation.ts";

const asCRD = (o: KubeObject): CustomResourceDefinition => {
  (o as { spec?: unknown }).spec ??= { group: "", names: { plural: "", kind: "" }, scope: "", versions: [] };
  return o as unknown as CustomResourceDefinition;
};

/** The storage version joins status.storedVersions (strategy.go PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions.find((v) => v.storage)?.name;
  if (storage === undefined) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

export const customResourceDefinitionStrategy: RESTStrategy = {
  group: "apiextensions.k8s.io",
  kind: "CustomResourceDefinition",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  defaults: (o) => setDefaultsCustomResourceDefinition(asCRD(o)),
  prepareForCreate: (o) => {
    const crd = asCRD(o);
    crd.status = {};
    crd.metadata.generation = 1;
    recordStorageVersion(crd);
  },
  prepareForUpdate: (o, old) => {
    const crd = asCRD(o);
    if (old["status"] === undefined) delete crd.status;
    else crd.status = structuredClone(old["status"]) as CustomResourceDefinition["status"];
    bumpGeneration(o, old);
    recordStorageVersion(crd);
  },
  validate: (o) => validateCustomResourceDefinition(asCRD(o), compileValidationRules),
  validateUpdate: (o, old) => validateCustomResourceDefinitionUpdate(asCRD(o), asCRD(old), compileValidationRules),
  subresources: {
    status: {
      // strategy.go statusStrategy: the spec is the stored one; metadata may change (upstream resets
      // the object meta to itself), which is how the finalizer controller removes its finalizer.
      prepareForUpdate: (o, old) => {
        o["spec"] = structuredClone(old["spec"]);
      },
      validateUpdate: (o, old) => validateCustomResourceDefinitionStatusUpdate(asCRD(o), asCRD(old)),
    },
  },
};
