/** The Secret and ServiceAccount tables (printers.go printSecret, printServiceAccount). */
import type { Secret, ServiceAccount, Table } from "@servicenet/api";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { translateTimestampSince } from "./time.ts";

/** core/v1 Secret{}.SwaggerDoc()["type"] and ["data"]. */
const typeDescription =
  "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types";
const dataDescription =
  "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";

/** core/v1 ServiceAccount{}.SwaggerDoc()["secrets"]. */
const secretsDescription =
  'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret';

/** NAME TYPE DATA AGE; DATA counts data's keys (its column type is "string", its cell an int64). */
export const secretHandler: TableHandler<Secret> = {
  columnDefinitions: [nameColumn(), column("Type", typeDescription), column("Data", dataDescription), ageColumn()],
  printRow: (s, { now }) => [
    s.metadata?.name ?? "",
    s.type ?? "",
    Object.keys(s.data ?? {}).length,
    translateTimestampSince(s.metadata?.creationTimestamp, now),
  ],
};

/** NAME SECRETS AGE; SECRETS counts the `secrets` references. */
export const serviceAccountHandler: TableHandler<ServiceAccount> = {
  columnDefinitions: [nameColumn(), column("Secrets", secretsDescription), ageColumn()],
  printRow: (sa, { now }) => [
    sa.metadata?.name ?? "",
    (sa.secrets ?? []).length,
    translateTimestampSince(sa.metadata?.creationTimestamp, now),
  ],
};

/** The Table the apiserver returns for secrets. */
export function printSecretTable(items: readonly Secret[], opts: PrintOptions = {}): Table {
  return generateTable(secretHandler, items, opts);
}

/** The Table the apiserver returns for serviceaccounts. */
export function printServiceAccountTable(items: readonly ServiceAccount[], opts: PrintOptions = {}): Table {
  return generateTable(serviceAccountHandler, items, opts);
}
