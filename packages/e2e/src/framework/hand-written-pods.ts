/**
 * Pods whose status a test writes by hand, as a kubelet would: they name a scheduler that does not
 * run, so the cluster's scheduler leaves them unbound (kube-scheduler handles only its own
 * `spec.schedulerName`) and no simulated kubelet ever owns them.
 */
export const handWrittenScheduler = "servicenet-e2e-hand-written";
