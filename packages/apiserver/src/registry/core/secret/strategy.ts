/** Secret REST strategy (pkg/registry/core/secret/strategy.go). */
import { setDefaultsSecret, validateSecret, validateSecretUpdate, type Secret } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const asSecret = (o: KubeObject): Secret => o;

/**
 * Namespaced; a PUT to a missing Secret is NotFound, an update needs no resourceVersion.
 * Decoding folds `stringData` into `data` and defaults `type` (Convert_v1_Secret_To_core_Secret,
 * SetDefaults_Secret); `type` is a field selector (SelectableFields).
 */
export const secretStrategy: RESTStrategy = {
  group: "",
  kind: "Secret",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaults: (o) => void setDefaultsSecret(asSecret(o)),
  prepareForCreate: () => {},
  // "weird, but consistent with what the validatedUpdate function used to do": an empty type keeps the old one.
  prepareForUpdate: (o, old) => {
    if ((o["type"] ?? "") === "") o["type"] = old["type"];
  },
  validate: (o) => validateSecret(asSecret(o)),
  validateUpdate: (o, old) => validateSecretUpdate(asSecret(o), asSecret(old)),
  selectableFields: (o) => ({ type: typeof o["type"] === "string" ? o["type"] : "" }),
  selectableFieldNames: ["type"],
};
