/** ServiceAccount REST strategy (pkg/registry/core/serviceaccount/strategy.go). */
import { validateServiceAccount, validateServiceAccountUpdate, type ServiceAccount } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const asServiceAccount = (o: KubeObject): ServiceAccount => o;

/** `cleanSecretReferences`: a `secrets` reference keeps only its name. */
function cleanSecretReferences(o: KubeObject): void {
  const sa = asServiceAccount(o);
  if (sa.secrets !== undefined) sa.secrets = sa.secrets.map((ref) => (ref.name === undefined ? {} : { name: ref.name }));
}

/** Namespaced; a PUT to a missing ServiceAccount is NotFound, an update needs no resourceVersion. */
export const serviceAccountStrategy: RESTStrategy = {
  group: "",
  kind: "ServiceAccount",
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate: cleanSecretReferences,
  validate: (o) => validateServiceAccount(asServiceAccount(o)),
  validateUpdate: (o, old) => validateServiceAccountUpdate(asServiceAccount(o), asServiceAccount(old)),
};
