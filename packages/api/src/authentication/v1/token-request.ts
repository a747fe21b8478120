/**
 * authentication.k8s.io/v1 TokenRequest (k8s.io/api/authentication/v1 types.go): the body and answer
 * of POST serviceaccounts/{name}/token. Fields in Go struct order.
 */
import { z } from "zod";
import { ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** BoundObjectReference: the object a token is bound to (a Pod, Secret or Node). */
export const BoundObjectReferenceSchema = z.object({
  kind: z.string().optional(),
  apiVersion: z.string().optional(),
  name: z.string().optional(),
  uid: z.string().optional(),
});
export type BoundObjectReference = z.infer<typeof BoundObjectReferenceSchema>;

/** TokenRequestSpec; `expirationSeconds` defaults to one hour (SetDefaults_TokenRequestSpec). */
export const TokenRequestSpecSchema = z.object({
  audiences: z.array(z.string()).nullable().optional(),
  expirationSeconds: z.number().int().optional(),
  boundObjectRef: BoundObjectReferenceSchema.nullable().optional(),
});
export type TokenRequestSpec = z.infer<typeof TokenRequestSpecSchema>;

/** TokenRequestStatus: the token and when it expires (Go zero values when a client sends an empty one). */
export const TokenRequestStatusSchema = z.object({
  token: z.string().optional(),
  expirationTimestamp: z.string().nullable().optional(),
});
export type TokenRequestStatus = z.infer<typeof TokenRequestStatusSchema>;

export const TokenRequestSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: TokenRequestSpecSchema.default({}),
  status: TokenRequestStatusSchema.optional(),
});
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

/** The default token lifetime (pkg/apis/authentication/v1/defaults.go SetDefaults_TokenRequestSpec). */
export const defaultTokenExpirationSeconds = 60 * 60;

/** SetDefaults_TokenRequestSpec: an unset expirationSeconds is one hour. */
export function setDefaultsTokenRequestSpec(spec: TokenRequestSpec): void {
  if (spec.expirationSeconds === undefined) spec.expirationSeconds = defaultTokenExpirationSeconds;
}
