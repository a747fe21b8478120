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
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";
import { keepSpecAndLabels } from "../status.ts";

export const deploymentStrategy = specAndStatusStrategy<Deployment>({
  group: "apps",
  kind: "Deployment",
  namespaced: true,
  defaults: (o) => {
    setDefaultsDeployment(o);
  },
  // PrepareForUpdate: a spec or annotation change bumps the generation (a rollback used to be
  // requested through an annotation, so annotations count as user intent too).
  bumpGeneration: (o, old) => {
    const prev = old.metadata.generation ?? 0;
    const changed = !semanticEqual(o.spec, old.spec) || !semanticEqual(o.metadata.annotations, old.metadata.annotations);
    o.metadata.generation = changed ? prev + 1 : prev;
  },
  validate: validateDeployment,
  // ValidateUpdate: for apps/v1 the selector is immutable.
  validateUpdate: (o, old) => [
    ...validateDeploymentUpdate(o, old),
    ...validateImmutableField(o.spec.selector, old.spec.selector, "spec.selector"),
  ],
  prepareForStatusUpdate: keepSpecAndLabels,
  validateStatusUpdate: validateDeploymentStatusUpdate,
});
