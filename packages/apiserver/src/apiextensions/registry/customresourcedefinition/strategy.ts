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
import { validationRuleCompiler } from "../../apiserver/schema/cel/compilation.ts";

/** A stored or decoded CustomResourceDefinition. */
export type CRDObject = KubeObject & CustomResourceDefinition;

/** A body without a spec is validated as Go's zero CustomResourceDefinitionSpec. */
const withSpec = (o: CRDObject): CRDObject => {
  (o as KubeObject)["spec"] ??= { group: "", names: { plural: "", kind: "" }, scope: "", versions: [] };
  return o;
};

/** The storage version joins status.storedVersions (strategy.go PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions.find((v) => v.storage)?.name;
  if (storage === undefined) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

/**
 * The strategy under the AuthorizeWithSelectors gate: x-kubernetes-validations compile in the
 * environment the gate gives (environment/base.go adds the selector library only with it).
 */
export function customResourceDefinitionStrategyFor(authorizeWithSelectors: boolean): RESTStrategy<CRDObject> {
  const compile = validationRuleCompiler(authorizeWithSelectors);
  return {
    group: "apiextensions.k8s.io",
    kind: "CustomResourceDefinition",
    namespaced: false,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    defaults: (o) => setDefaultsCustomResourceDefinition(withSpec(o)),
    prepareForCreate: (o) => {
      const crd = withSpec(o);
      crd.status = {};
      crd.metadata.generation = 1;
      recordStorageVersion(crd);
    },
    prepareForUpdate: (o, old) => {
      const crd = withSpec(o);
      if (old.status === undefined) delete crd.status;
      else crd.status = structuredClone(old.status);
      bumpGeneration(o, old);
      recordStorageVersion(crd);
    },
    validate: (o) => validateCustomResourceDefinition(withSpec(o), compile),
    validateUpdate: (o, old) => validateCustomResourceDefinitionUpdate(withSpec(o), withSpec(old), compile),
    subresources: {
      status: {
        // strategy.go statusStrategy: the spec is the stored one; metadata may change (upstream resets
        // the object meta to itself), which is how the finalizer controller removes its finalizer.
        prepareForUpdate: (o, old) => {
          o.spec = structuredClone(old.spec);
        },
        validateUpdate: (o, old) => validateCustomResourceDefinitionStatusUpdate(withSpec(o), withSpec(old)),
      },
    },
  };
}

export const customResourceDefinitionStrategy: RESTStrategy<CRDObject> = customResourceDefinitionStrategyFor(true);
