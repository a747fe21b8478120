/**
 * controller_policy.go buildControllerRoles, the volume and storage controllers and the
 * dynamic-resource-allocation ones (the latter only with their gates).
 */
import { newRule } from "./helpers.ts";
import type { ControllerRules } from "./controller-rules-workloads.ts";
import { eventsRule, legacyGroup, resourceGroup, storageGroup } from "./policy-base.ts";

export const attachDetachController: ControllerRules = [
  "attachdetach-controller",
  [
    newRule("list", "watch").groups(legacyGroup).resources("persistentvolumes", "persistentvolumeclaims").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("nodes").rule(),
    newRule("patch", "update").groups(legacyGroup).resources("nodes/status").rule(),
    newRule("list", "watch").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
    newRule("get", "create", "delete", "list", "watch").groups(storageGroup).resources("volumeattachments").rule(),
    newRule("get", "watch", "list").groups(storageGroup).resources("csidrivers").rule(),
    newRule("get", "watch", "list").groups(storageGroup).resources("csinodes").rule(),
  ],
];

export const expandController: ControllerRules = [
  "expand-controller",
  [
    newRule("get", "list", "watch", "update", "patch").groups(legacyGroup).resources("persistentvolumes").rule(),
    newRule("update", "patch").groups(legacyGroup).resources("persistentvolumeclaims/status").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    eventsRule(),
  ],
];

export const ephemeralVolumeController: ControllerRules = [
  "ephemeral-volume-controller",
  [
    newRule("get", "list", "watch").groups(legacyGroup).resources("pods").rule(),
    newRule("update").groups(legacyGroup).resources("pods/finalizers").rule(),
    newRule("get", "list", "watch", "create").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    eventsRule(),
  ],
];

export const resourceClaimController: ControllerRules = [
  "resource-claim-controller",
  [
    newRule("get", "list", "watch").groups(legacyGroup).resources("pods").rule(),
    newRule("update").groups(legacyGroup).resources("pods/finalizers").rule(),
    newRule("get", "list", "watch", "create", "delete").groups(resourceGroup).resources("resourceclaims").rule(),
    newRule("update", "patch").groups(resourceGroup).resources("resourceclaims", "resourceclaims/status").rule(),
    newRule("update", "patch").groups(legacyGroup).resources("pods/status").rule(),
    eventsRule(),
  ],
];

export const deviceTaintEvictionController: ControllerRules = [
  "device-taint-eviction-controller",
  [
    // Deletes pods to evict them.
    newRule("get", "list", "watch", "delete").groups(legacyGroup).resources("pods").rule(),
    // Sets pod conditions.
    newRule("update", "patch").groups(legacyGroup).resources("pods/status").rule(),
    // The rest is read-only.
    newRule("get", "list", "watch").groups(resourceGroup).resources("resourceclaims").rule(),
    newRule("get", "list", "watch").groups(resourceGroup).resources("resourceslices").rule(),
    newRule("get", "list", "watch").groups(resourceGroup).resources("deviceclasses").rule(),
    eventsRule(),
  ],
];

export const persistentVolumeBinder: ControllerRules = [
  "persistent-volume-binder",
  [
    newRule("get", "list", "watch", "update", "create", "delete").groups(legacyGroup).resources("persistentvolumes").rule(),
    newRule("update").groups(legacyGroup).resources("persistentvolumes/status").rule(),
    newRule("get", "list", "watch", "update").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    newRule("update").groups(legacyGroup).resources("persistentvolumeclaims/status").rule(),
    newRule("list", "watch", "get", "create", "delete").groups(legacyGroup).resources("pods").rule(),
    newRule("get", "list", "watch").groups(storageGroup).resources("storageclasses").rule(),
    newRule("list", "watch").groups(legacyGroup).resources("nodes").rule(),
    eventsRule(),
    // recyclerClient.WatchPod
    newRule("watch").groups(legacyGroup).resources("events").rule(),
  ],
];

export const pvcProtectionController: ControllerRules = [
  "pvc-protection-controller",
  [
    newRule("get", "list", "watch", "update").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    newRule("update").groups(legacyGroup).resources("persistentvolumeclaims/status").rule(),
    newRule("list", "watch", "get").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const pvProtectionController: ControllerRules = [
  "pv-protection-controller",
  [newRule("get", "list", "watch", "update").groups(legacyGroup).resources("persistentvolumes").rule(), eventsRule()],
];

export const volumeAttributesClassProtectionController: ControllerRules = [
  "volumeattributesclass-protection-controller",
  [
    newRule("list", "watch", "get").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    newRule("list", "watch", "get").groups(legacyGroup).resources("persistentvolumes").rule(),
    newRule("get", "list", "watch", "update").groups(storageGroup).resources("volumeattributesclasses").rule(),
    eventsRule(),
  ],
];

export const seLinuxWarningController: ControllerRules = [
  "selinux-warning-controller",
  [
    eventsRule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("persistentvolumes").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("pods").rule(),
    newRule("get", "list", "watch").groups(storageGroup).resources("csidrivers").rule(),
  ],
];
