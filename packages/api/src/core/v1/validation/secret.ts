/** `ValidateSecret` / `ValidateSecretUpdate` (pkg/apis/core/validation/validation.go). */
import { field, keyPath, type FieldErrorList } from "../../../errors/index.ts";
import { validateImmutableField } from "../../../meta/v1/validation/immutable.ts";
import { labelKeyPath } from "../../../meta/v1/validation/labels.ts";
import { isConfigMapKey } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import { maxSecretSize, secretKeys, secretTypes, type Secret } from "../secret.ts";
import { base64DecodedLength, sameBag } from "./config-map.ts";
import { goUnmarshalMapError } from "./go-json.ts";

const immutableMsg = "field is immutable when `immutable` is set";
const redacted = "<secret contents redacted>";

const dataKey = (key: string): string => keyPath("data", key);

/** The docker config types: the key must be there and hold a JSON object. */
function dockerConfigErrors(data: Record<string, string>, key: string): FieldErrorList {
  const value = data[key];
  if (value === undefined) return [field.required(dataKey(key))];
  const err = goUnmarshalMapError(Buffer.from(value, "base64"));
  return err === undefined ? [] : [field.invalid(dataKey(key), redacted, err)];
}

/** The `switch secret.Type` of ValidateSecret; unknown types (and bootstrap tokens) have no rules here. */
function typeErrors(secret: Secret, data: Record<string, string>): FieldErrorList {
  const has = (k: string): boolean => Object.hasOwn(data, k);
  switch (secret.type ?? "") {
    case secretTypes.ServiceAccountToken:
      // Only the name annotation is required; the token controller adds the uid and token later.
      return (secret.metadata.annotations?.[secretKeys.serviceAccountName] ?? "") === ""
        ? [field.required(keyPath("metadata.annotations", secretKeys.serviceAccountName))]
        : [];
    case secretTypes.Dockercfg:
      return dockerConfigErrors(data, secretKeys.dockerConfig);
    case secretTypes.DockerConfigJSON:
      return dockerConfigErrors(data, secretKeys.dockerConfigJSON);
    case secretTypes.BasicAuth:
      // Either may be empty, but one of them must be present.
      return has(secretKeys.basicAuthUsername) || has(secretKeys.basicAuthPassword)
        ? []
        : [field.required(dataKey(secretKeys.basicAuthUsername)), field.required(dataKey(secretKeys.basicAuthPassword))];
    case secretTypes.SSHAuth:
      return base64DecodedLength(data[secretKeys.sshAuthPrivateKey] ?? "") === 0
        ? [field.required(dataKey(secretKeys.sshAuthPrivateKey))]
        : [];
    case secretTypes.TLS:
      return [secretKeys.tlsCert, secretKeys.tlsPrivateKey].filter((k) => !has(k)).map((k) => field.required(dataKey(k)));
    default:
      return [];
  }
}

/** `ValidateSecret`: DNS-subdomain name, config-map keys, at most 1 MiB of data, the type's rules. */
export function validateSecret(secret: Secret): FieldErrorList {
  const errs = validateObjectMeta(secret.metadata, { namespaced: true });
  const data = secret.data ?? {};
  let totalSize = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...isConfigMapKey(key).map((m) => field.invalid(labelKeyPath("data", key), key, m)));
    totalSize += base64DecodedLength(value);
  }
  if (totalSize > maxSecretSize) errs.push(field.tooLong("data", "", maxSecretSize));
  errs.push(...typeErrors(secret, data));
  return errs;
}

/** `ValidateSecretUpdate`: metadata rules, `type` immutable, and once immutable, `immutable` and `data` stay. */
export function validateSecretUpdate(secret: Secret, oldSecret: Secret): FieldErrorList {
  const errs = validateObjectMetaUpdate(secret.metadata, oldSecret.metadata);
  errs.push(...validateImmutableField(secret.type ?? "", oldSecret.type ?? "", "type"));
  if (oldSecret.immutable === true) {
    if (secret.immutable !== true) errs.push(field.forbidden("immutable", immutableMsg));
    // stringData needs no check: it was folded into data before validation.
    if (!sameBag(secret.data, oldSecret.data)) errs.push(field.forbidden("data", immutableMsg));
  }
  errs.push(...validateSecret(secret));
  return errs;
}
