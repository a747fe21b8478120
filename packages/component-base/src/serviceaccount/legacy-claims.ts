/**
 * The claims of a secret-based ("legacy") service-account token (pkg/serviceaccount/legacy.go
 * LegacyClaims): signed into a `kubernetes.io/service-account-token` Secret by the
 * controller-manager's tokens controller, checked by the apiserver's legacy validator.
 */
import type { PublicClaims } from "./jwt.ts";

/** The issuer of every secret-based token (LegacyIssuer). */
export const legacyIssuer = "kubernetes/serviceaccount";
/** The label carrying the day (UTC, 2006-01-02) a secret-based token was last used (LastUsedLabelKey). */
export const lastUsedLabelKey = "kubernetes.io/legacy-token-last-used";
/** The label the legacy token cleaner puts on a Secret whose token it invalidated (InvalidSinceLabelKey). */
export const invalidSinceLabelKey = "kubernetes.io/legacy-token-invalid-since";

/** legacyPrivateClaims: flat `kubernetes.io/serviceaccount/...` claims. */
export interface LegacyPrivateClaims {
  "kubernetes.io/serviceaccount/service-account.name"?: string;
  "kubernetes.io/serviceaccount/service-account.uid"?: string;
  "kubernetes.io/serviceaccount/secret.name"?: string;
  "kubernetes.io/serviceaccount/namespace"?: string;
}

/** What the claims name of a ServiceAccount. */
export interface ServiceAccountRef {
  namespace: string;
  name: string;
  uid: string;
}

/** LegacyClaims: `sub` and the private claims naming the ServiceAccount and the Secret (no exp, no aud). */
export function legacyClaims(sa: ServiceAccountRef, secretName: string): { public: PublicClaims; private: LegacyPrivateClaims } {
  return {
    public: { sub: `system:serviceaccount:${sa.namespace}:${sa.name}` },
    private: {
      "kubernetes.io/serviceaccount/namespace": sa.namespace,
      "kubernetes.io/serviceaccount/service-account.name": sa.name,
      "kubernetes.io/serviceaccount/service-account.uid": sa.uid,
      "kubernetes.io/serviceaccount/secret.name": secretName,
    },
  };
}
