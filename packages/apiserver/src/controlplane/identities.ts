/**
 * The identities `servicenet up` gives its own components, as kubeadm and kube-controller-manager
 * do: kubectl's admin (a client certificate CN=kubernetes-admin, O=system:masters, kubeadm's
 * admin.conf), the controller-manager (CN=system:kube-controller-manager) and kube-proxy
 * (CN=system:kube-proxy, bound to system:node-proxier by the bootstrap policy) and the scheduler
 * (CN=system:kube-scheduler).
 *
 * Per-controller identities (`--use-service-account-credentials`): upstream's controller-manager
 * reads each controller's ServiceAccount token from the API (SAControllerClientBuilder).
 * servicenet has no ServiceAccounts or token controller, so this deliberately differs: a token per
 * controller identity `system:serviceaccount:kube-system:<name>` (groups system:serviceaccounts,
 * system:serviceaccounts:kube-system) is pre-provisioned in the token file, and the
 * controller-manager's kubeconfig has one user per controller, named as the service account.
 */
import { randomBytes } from "node:crypto";
import type { UserInfo } from "../authentication/user/user.ts";
import { kubeControllerManager, kubeProxy, kubeScheduler, systemPrivilegedGroup } from "../authentication/user/user.ts";
import { makeUsername } from "../authentication/serviceaccount/util.ts";

/** kubeadm's admin user (constants.go KubernetesAdmin... admin.conf's CN). */
export const kubernetesAdmin = "kubernetes-admin";

/** The controller service accounts of the controllers servicenet runs (controller_policy.go names). */
export const controllerServiceAccounts = [
  "clusterrole-aggregation-controller",
  "deployment-controller",
  "endpoint-controller",
  "endpointslice-controller",
  "endpointslicemirroring-controller",
  "generic-garbage-collector",
  "namespace-controller",
  "node-controller",
  "replicaset-controller",
  "root-ca-cert-publisher",
  "service-account-controller",
  "service-cidrs-controller",
] as const;

/** serviceaccount.MakeUsername. */
export const serviceAccountUsername = makeUsername;

/** The client certificates servicenet issues: file name in the pki directory, CN and O. */
export const componentCerts = {
  admin: { file: "admin", cn: kubernetesAdmin, orgs: [systemPrivilegedGroup] },
  controllerManager: { file: "controller-manager", cn: kubeControllerManager, orgs: [] },
  kubeProxy: { file: "kube-proxy", cn: kubeProxy, orgs: [] },
  // kubeadm's scheduler.conf: bound to system:kube-scheduler by the bootstrap policy.
  scheduler: { file: "scheduler", cn: kubeScheduler, orgs: [] },
} as const;

/** A token file line of one controller identity (random token). */
export function controllerTokenLine(name: string): string {
  return `${randomBytes(24).toString("hex")},${serviceAccountUsername("kube-system", name)},${name},"system:serviceaccounts,system:serviceaccounts:kube-system"\n`;
}

/** The controller identities' tokens in a parsed token file: service-account name → token. */
export function controllerTokens(tokens: ReadonlyMap<string, UserInfo>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [token, u] of tokens)
    for (const name of controllerServiceAccounts) if (u.name === serviceAccountUsername("kube-system", name)) out.set(name, token);
  return out;
}
