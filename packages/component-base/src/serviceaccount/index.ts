/** pkg/serviceaccount's signing half, shared by kube-apiserver (TokenRequest) and kube-controller-manager (token Secrets). */
export { JWTTokenGenerator, algorithmHash, algorithmOf, keyIDFromPublicKey, sortedJSON } from "./jwt.ts";
export type { PublicClaims, SignatureAlgorithm, TokenGenerator } from "./jwt.ts";
export { invalidSinceLabelKey, lastUsedLabelKey, legacyClaims, legacyIssuer } from "./legacy-claims.ts";
export type { LegacyPrivateClaims, ServiceAccountRef } from "./legacy-claims.ts";
