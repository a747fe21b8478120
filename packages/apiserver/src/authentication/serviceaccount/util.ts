/**
 * Service-account identities (staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go):
 * the user name `system:serviceaccount:<ns>:<name>`, its groups, and the user a validated token
 * names (ServiceAccountInfo.UserInfo) with the pod, node and credential extras.
 */
import { credentialIDKey, type UserInfo } from "../user/user.ts";

export const serviceAccountUsernamePrefix = "system:serviceaccount:";
export const allServiceAccountsGroup = "system:serviceaccounts";
export const serviceAccountGroupPrefix = "system:serviceaccounts:";

// The extra keys of a bound token's user.
export const podNameKey = "authentication.kubernetes.io/pod-name";
export const podUIDKey = "authentication.kubernetes.io/pod-uid";
export const nodeNameKey = "authentication.kubernetes.io/node-name";
export const nodeUIDKey = "authentication.kubernetes.io/node-uid";

/** The audit annotation naming the credential a TokenRequest issued (IssuedCredentialIDAuditAnnotationKey). */
export const issuedCredentialIDAuditAnnotationKey = "authentication.kubernetes.io/issued-credential-id";

/** MakeUsername. */
export const makeUsername = (namespace: string, name: string): string => `${serviceAccountUsernamePrefix}${namespace}:${name}`;

/** MakeGroupNames: every service account's group and its namespace's. */
export const makeGroupNames = (namespace: string): string[] => [allServiceAccountsGroup, `${serviceAccountGroupPrefix}${namespace}`];

/** CredentialIDForJTI (token/jwt): `JTI=<jti>`, or nothing for a token without one. */
export const credentialIDForJTI = (jti: string): string => (jti === "" ? "" : `JTI=${jti}`);

/** ServiceAccountInfo: what a validated token says. */
export interface ServiceAccountInfo {
  name: string;
  namespace: string;
  uid: string;
  podName?: string;
  podUID?: string;
  nodeName?: string;
  nodeUID?: string;
  credentialID?: string;
}

/** ServiceAccountInfo.UserInfo. */
export function serviceAccountUserInfo(sa: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[podNameKey] = [sa.podName];
    extra[podUIDKey] = [sa.podUID];
  }
  if (sa.credentialID) extra[credentialIDKey] = [sa.credentialID];
  if (sa.nodeName) {
    extra[nodeNameKey] = [sa.nodeName];
    // The node's UID is only there with its name.
    if (sa.nodeUID) extra[nodeUIDKey] = [sa.nodeUID];
  }
  return {
    name: makeUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: makeGroupNames(sa.namespace),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
