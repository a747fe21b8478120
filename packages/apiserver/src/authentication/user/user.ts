/**
 * The authenticated user of a request (staging/src/k8s.io/apiserver/pkg/authentication/user/user.go).
 * Authenticators produce it; the authorizer, impersonation, the reviews and the audit log read it.
 */

/** user.Info. */
export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  /** Extra attributes (impersonation's `Impersonate-Extra-*`, x509's credential ID). */
  extra?: Record<string, string[]>;
}

// Well-known user and group names (user.go).
export const systemPrivilegedGroup = "system:masters";
export const nodesGroup = "system:nodes";
export const monitoringGroup = "system:monitoring";
export const allUnauthenticated = "system:unauthenticated";
export const allAuthenticated = "system:authenticated";
export const anonymous = "system:anonymous";
export const apiserverUser = "system:apiserver";
export const kubeProxy = "system:kube-proxy";
export const kubeControllerManager = "system:kube-controller-manager";
export const kubeScheduler = "system:kube-scheduler";

/**
 * The extra key naming the credential a request authenticated with (user.go CredentialIDKey),
 * e.g. `X509SHA256=<fingerprint>` for a client certificate.
 */
export const credentialIDKey = "authentication.kubernetes.io/credential-id";

/** The user of a request no authenticator claimed, with `--anonymous-auth` on (request/anonymous/anonymous.go). */
export const anonymousUser: UserInfo = { name: anonymous, uid: "", groups: [allUnauthenticated] };
