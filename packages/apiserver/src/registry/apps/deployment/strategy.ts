/** apps/v1 Deployment REST strategy (pkg/registry/apps/deployment/strategy.go). */
import {
  setDefaultsDeployment,
  validateDeployment,
  validateDeploymentStatusUpdate,
  validateDeploymentUpdate,
  semanticEqual,
  validateImmutableField,
  type Deployment,
} from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";
import { dropStatusOnCreate, keepSpecAndLabels, keepStatusOf } from "../status.ts";

const asDeployment = (o: KubeObject): Deployment => o as unknown as Deployment;

export const deploymentStrategy: RESTStrategy = {
  group: "apps",
  kind: "Deployment",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => {
    setDefaultsDeployment(asDeployment(o));
  },
  // PrepareForCreate: status cleared, generation 1.
  prepareForCreate: dropStatusOnCreate(() => ({})),
  // PrepareForUpdate: status kept; a spec or annotation change bumps the generation (a rollback
  // used to be requested through an annotation, so annotations count as user intent too).
  prepareForUpdate: (o, old) => {
    keepStatusOf(o, old);
    const prev = old.metadata.generation ?? 0;
    const changed = !semanticEqual(o["spec"], old["spec"]) || !semanticEqual(o.metadata.annotations, old.metadata.annotations);
    o.metadata.generation = changed ? prev + 1 : prev;
  },
  validate: (o) => validateDeployment(asDeployment(o)),
  // ValidateUpdate: for apps/v1 the selector is immutable.
  validateUpdate: (o, old) => [
    ...validateDeploymentUpdate(asDeployment(o), asDeployment(old)),
    ...validateImmutableField(asDeployment(o).spec.selector, asDeployment(old).spec.selector, "spec.selector"),
  ],
  subresources: {
    status: {
      prepareForUpdate: keepSpecAndLabels,
      validateUpdate: (o, old) => validateDeploymentStatusUpdate(asDeployment(o), asDeployment(old)),
    },
  },
};
