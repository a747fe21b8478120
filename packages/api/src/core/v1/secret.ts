/**
 * core/v1 Secret (k8s.io/api/core/v1 types.go): base64 `data` (Go's `map[string][]byte`), the
 * write-only `stringData` folded into it on decode, a `type`, optionally immutable.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** Fields in Go struct order. */
export const SecretSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  immutable: z.boolean().optional(),
  /** Values are standard base64 (padded) on the wire; validation counts their decoded bytes. */
  data: z.record(z.string(), z.string()).optional(),
  /** Write-only: merged into `data` on every write and never stored (Convert_v1_Secret_To_core_Secret). */
  stringData: z.record(z.string(), z.string()).optional(),
  type: z.string().optional(),
});
export type Secret = z.infer<typeof SecretSchema>;

export const SecretListSchema = listSchemaOf(SecretSchema);
export type SecretList = z.infer<typeof SecretListSchema>;

/** `MaxSecretSize` (core/v1 types.go): the most bytes a Secret's data may hold. */
export const maxSecretSize = 1024 * 1024;

/** The well-known secret types and the keys their validation requires (core/v1 types.go). */
export const secretTypes = {
  Opaque: "Opaque",
  ServiceAccountToken: "kubernetes.io/service-account-token",
  Dockercfg: "kubernetes.io/dockercfg",
  DockerConfigJSON: "kubernetes.io/dockerconfigjson",
  BasicAuth: "kubernetes.io/basic-auth",
  SSHAuth: "kubernetes.io/ssh-auth",
  TLS: "kubernetes.io/tls",
  BootstrapToken: "bootstrap.kubernetes.io/token",
} as const;

export const secretKeys = {
  /** ServiceAccountNameKey and ServiceAccountUIDKey: the annotations naming a token Secret's ServiceAccount. */
  serviceAccountName: "kubernetes.io/service-account.name",
  serviceAccountUID: "kubernetes.io/service-account.uid",
  /** ServiceAccountTokenKey, ServiceAccountNamespaceKey, ServiceAccountRootCAKey: a token Secret's data. */
  serviceAccountToken: "token",
  serviceAccountNamespace: "namespace",
  serviceAccountRootCA: "ca.crt",
  dockerConfig: ".dockercfg",
  dockerConfigJSON: ".dockerconfigjson",
  basicAuthUsername: "username",
  basicAuthPassword: "password",
  sshAuthPrivateKey: "ssh-privatekey",
  tlsCert: "tls.crt",
  tlsPrivateKey: "tls.key",
} as const;

/**
 * The v1 -> internal conversion and defaulting of a decoded Secret: `stringData` overwrites
 * `data`'s keys (as base64) and is dropped (Convert_v1_Secret_To_core_Secret), and an empty
 * `type` is `Opaque` (SetDefaults_Secret).
 */
export function setDefaultsSecret(secret: Secret): Secret {
  const stringData = secret.stringData;
  delete secret.stringData;
  if (stringData !== undefined && Object.keys(stringData).length > 0) {
    secret.data ??= {};
    for (const [k, v] of Object.entries(stringData)) secret.data[k] = Buffer.from(v, "utf8").toString("base64");
  }
  if ((secret.type ?? "") === "") secret.type = secretTypes.Opaque;
  return secret;
}
