/**
 * The identities `servicenet up` gives its own components, as kubeadm and kube-controller-manager
 * do: kubectl's admin (a client certificate CN=kubernetes-admin, O=system:masters, kubeadm's
 * admin.conf), the controller-manager (CN=system:kube-controller-manager) and kube-proxy
 * (CN=system:kube-proxy, bound to system:node-proxier by the bootstrap policy) and the scheduler
 * (CN=system:kube-scheduler).
 *
 * Per-controller identities (`--use-service-account-credentials`) are not made here: the
 * controller-manager provisions each controller's ServiceAccount in kube-system and asks
 * TokenRequest for its tokens, as upstream's DynamicControllerClientBuilder.
 */
import { kubeControllerManager, kubeProxy, kubeScheduler, systemPrivilegedGroup } from "../authentication/user/user.ts";

/** kubeadm's admin user (constants.go KubernetesAdmin... admin.conf's CN). */
export const kubernetesAdmin = "kubernetes-admin";

/** The client certificates servicenet issues: file name in the pki directory, CN and O. */
export const componentCerts = {
  admin: { file: "admin", cn: kubernetesAdmin, orgs: [systemPrivilegedGroup] },
  controllerManager: { file: "controller-manager", cn: kubeControllerManager, orgs: [] },
  kubeProxy: { file: "kube-proxy", cn: kubeProxy, orgs: [] },
  // kubeadm's scheduler.conf: bound to system:kube-scheduler by the bootstrap policy.
  scheduler: { file: "scheduler", cn: kubeScheduler, orgs: [] },
} as const;
