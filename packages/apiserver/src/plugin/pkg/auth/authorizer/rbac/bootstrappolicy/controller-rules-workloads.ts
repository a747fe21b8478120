/**
 * controller_policy.go buildControllerRoles, the workload controllers: each entry is a controller
 * name (its role is `system:controller:<name>`, bound to the `<name>` service account) and its rules.
 */
import type { PolicyRule } from "@servicenet/api";
import { newRule } from "./helpers.ts";
import {
  appsGroup,
  autoscalingGroup,
  batchGroup,
  customMetricsGroup,
  eventsRule,
  extensionsGroup,
  externalMetricsGroup,
  legacyGroup,
  policyGroup,
  resMetricsGroup,
} from "./policy-base.ts";

/** A controller's name and rules, in the order buildControllerRoles adds them. */
export type ControllerRules = [name: string, rules: PolicyRule[]];

export const cronJobController: ControllerRules = [
  "cronjob-controller",
  [
    newRule("get", "list", "watch", "update").groups(batchGroup).resources("cronjobs").rule(),
    newRule("get", "list", "watch", "create", "update", "delete", "patch").groups(batchGroup).resources("jobs").rule(),
    newRule("update").groups(batchGroup).resources("cronjobs/status").rule(),
    newRule("update").groups(batchGroup).resources("cronjobs/finalizers").rule(),
    newRule("list", "watch", "delete").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const daemonSetController: ControllerRules = [
  "daemon-set-controller",
  [
    newRule("get", "list", "watch").groups(extensionsGroup, appsGroup).resources("daemonsets").rule(),
    newRule("update").groups(extensionsGroup, appsGroup).resources("daemonsets/status").rule(),
    newRule("update").groups(extensionsGroup, appsGroup).resources("daemonsets/finalizers").rule(),
    newRule("list", "watch").groups(legacyGroup).resources("nodes").rule(),
    newRule("list", "watch", "create", "delete", "patch").groups(legacyGroup).resources("pods").rule(),
    newRule("create").groups(legacyGroup).resources("pods/binding").rule(),
    newRule("get", "list", "watch", "create", "delete", "update", "patch").groups(appsGroup).resources("controllerrevisions").rule(),
    eventsRule(),
  ],
];

export const deploymentController: ControllerRules = [
  "deployment-controller",
  [
    newRule("get", "list", "watch", "update").groups(extensionsGroup, appsGroup).resources("deployments").rule(),
    newRule("update").groups(extensionsGroup, appsGroup).resources("deployments/status").rule(),
    newRule("update").groups(extensionsGroup, appsGroup).resources("deployments/finalizers").rule(),
    newRule("get", "list", "watch", "create", "update", "patch", "delete")
      .groups(appsGroup, extensionsGroup)
      .resources("replicasets")
      .rule(),
    // TODO: remove "update" once https://github.com/kubernetes/kubernetes/issues/36897 is resolved.
    newRule("get", "list", "watch", "update").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const disruptionController: ControllerRules = [
  "disruption-controller",
  [
    newRule("get", "list", "watch").groups(extensionsGroup, appsGroup).resources("deployments").rule(),
    newRule("get", "list", "watch").groups(appsGroup, extensionsGroup).resources("replicasets").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("replicationcontrollers").rule(),
    newRule("get", "list", "watch").groups(policyGroup).resources("poddisruptionbudgets").rule(),
    newRule("get", "list", "watch").groups(appsGroup).resources("statefulsets").rule(),
    newRule("update").groups(policyGroup).resources("poddisruptionbudgets/status").rule(),
    newRule("patch", "update").groups(legacyGroup).resources("pods/status").rule(),
    newRule("get").groups("*").resources("*/scale").rule(),
    eventsRule(),
  ],
];

export const horizontalPodAutoscaler: ControllerRules = [
  "horizontal-pod-autoscaler",
  [
    newRule("get", "list", "watch").groups(autoscalingGroup).resources("horizontalpodautoscalers").rule(),
    newRule("update").groups(autoscalingGroup).resources("horizontalpodautoscalers/status").rule(),
    newRule("get", "update").groups("*").resources("*/scale").rule(),
    newRule("list", "watch").groups(legacyGroup).resources("pods").rule(),
    // allow listing resource, custom, and external metrics
    newRule("list", "watch").groups(resMetricsGroup).resources("pods").rule(),
    newRule("get", "list", "watch").groups(customMetricsGroup).resources("*").rule(),
    newRule("get", "list", "watch").groups(externalMetricsGroup).resources("*").rule(),
    eventsRule(),
  ],
];

export const jobController: ControllerRules = [
  "job-controller",
  [
    newRule("get", "list", "watch", "update", "patch").groups(batchGroup).resources("jobs").rule(),
    newRule("update").groups(batchGroup).resources("jobs/status").rule(),
    newRule("update").groups(batchGroup).resources("jobs/finalizers").rule(),
    newRule("list", "watch", "create", "delete", "patch").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const replicaSetController: ControllerRules = [
  "replicaset-controller",
  [
    newRule("get", "list", "watch", "update").groups(appsGroup, extensionsGroup).resources("replicasets").rule(),
    newRule("update").groups(appsGroup, extensionsGroup).resources("replicasets/status").rule(),
    newRule("update").groups(appsGroup, extensionsGroup).resources("replicasets/finalizers").rule(),
    newRule("list", "watch", "patch", "create", "delete").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const replicationController: ControllerRules = [
  "replication-controller",
  [
    // 1.0 controllers needed get, update, so without these old controllers break on new servers
    newRule("get", "list", "watch", "update").groups(legacyGroup).resources("replicationcontrollers").rule(),
    newRule("update").groups(legacyGroup).resources("replicationcontrollers/status").rule(),
    newRule("update").groups(legacyGroup).resources("replicationcontrollers/finalizers").rule(),
    newRule("list", "watch", "patch", "create", "delete").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const statefulSetController: ControllerRules = [
  "statefulset-controller",
  [
    newRule("list", "watch").groups(legacyGroup).resources("pods").rule(),
    newRule("get", "list", "watch").groups(appsGroup).resources("statefulsets").rule(),
    newRule("update").groups(appsGroup).resources("statefulsets/status").rule(),
    newRule("update").groups(appsGroup).resources("statefulsets/finalizers").rule(),
    newRule("get", "create", "delete", "update", "patch").groups(legacyGroup).resources("pods").rule(),
    newRule("get", "create", "delete", "update", "patch", "list", "watch").groups(appsGroup).resources("controllerrevisions").rule(),
    newRule("get", "create", "list", "watch").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    newRule("update", "delete").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    newRule("update").groups(legacyGroup).resources("pods/finalizers").rule(),
    eventsRule(),
  ],
];

export const ttlAfterFinishedController: ControllerRules = [
  "ttl-after-finished-controller",
  [newRule("get", "list", "watch", "delete").groups(batchGroup).resources("jobs").rule(), eventsRule()],
];
