/** ConfigMap REST strategy (pkg/registry/core/configmap/strategy.go). */
import { validateConfigMap, validateConfigMapUpdate, type ConfigMap } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const asConfigMap = (o: KubeObject): ConfigMap => o;

/** Namespaced; a PUT to a missing ConfigMap is NotFound, and an update needs no resourceVersion. */
export const configMapStrategy: RESTStrategy = {
  group: "",
  kind: "ConfigMap",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => validateConfigMap(asConfigMap(o)),
  validateUpdate: (o, old) => validateConfigMapUpdate(asConfigMap(o), asConfigMap(old)),
};
