/**
 * controller_policy.go buildControllerRoles, the cluster, node, network and API-machinery controllers.
 */
import { newRule } from "./helpers.ts";
import type { ControllerRules } from "./controller-rules-workloads.ts";
import {
  admissionRegistrationGroup,
  authorizationGroup,
  certificatesGroup,
  coordinationGroup,
  discoveryGroup,
  eventsRule,
  internalAPIServerGroup,
  legacyGroup,
  networkingGroup,
  rbacGroup,
  storageVersionMigrationGroup,
} from "./policy-base.ts";

export const clusterRoleAggregationController: ControllerRules = [
  "clusterrole-aggregation-controller",
  // this controller must have full permissions on clusterroles to allow it to mutate them in any way
  [newRule("escalate", "get", "list", "watch", "update", "patch").groups(rbacGroup).resources("clusterroles").rule()],
];

export const endpointController: ControllerRules = [
  "endpoint-controller",
  [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services", "pods").rule(),
    newRule("get", "list", "watch", "create", "update", "delete").groups(legacyGroup).resources("endpoints").rule(),
    newRule("create").groups(legacyGroup).resources("endpoints/restricted").rule(),
    eventsRule(),
  ],
];

export const endpointSliceController: ControllerRules = [
  "endpointslice-controller",
  [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services", "pods", "nodes").rule(),
    // The controller needs to be able to set a service's finalizers to be able to create an EndpointSlice
    // resource that is owned by the service and sets blockOwnerDeletion=true in its ownerRef.
    newRule("update").groups(legacyGroup).resources("services/finalizers").rule(),
    newRule("get", "list", "watch", "create", "update", "delete").groups(discoveryGroup).resources("endpointslices").rule(),
    eventsRule(),
  ],
];

export const endpointSliceMirroringController: ControllerRules = [
  "endpointslicemirroring-controller",
  [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services", "endpoints").rule(),
    // The controller needs to be able to set a service's finalizers to be able to create an EndpointSlice
    // resource that is owned by the service and sets blockOwnerDeletion=true in its ownerRef.
    newRule("update").groups(legacyGroup).resources("services/finalizers").rule(),
    // ... and the finalizers of the Endpoints an EndpointSlice it mirrors is owned by.
    newRule("update").groups(legacyGroup).resources("endpoints/finalizers").rule(),
    newRule("get", "list", "watch", "create", "update", "delete").groups(discoveryGroup).resources("endpointslices").rule(),
    eventsRule(),
  ],
];

export const genericGarbageCollector: ControllerRules = [
  "generic-garbage-collector",
  [
    // the GC controller needs to run list/watches, selective gets, and updates against any resource
    newRule("get", "list", "watch", "patch", "update", "delete").groups("*").resources("*").rule(),
    eventsRule(),
  ],
];

export const namespaceController: ControllerRules = [
  "namespace-controller",
  [
    newRule("get", "list", "watch", "delete").groups(legacyGroup).resources("namespaces").rule(),
    newRule("update").groups(legacyGroup).resources("namespaces/finalize", "namespaces/status").rule(),
    newRule("get", "list", "watch", "delete", "deletecollection").groups("*").resources("*").rule(),
  ],
];

export const nodeController: ControllerRules = [
  "node-controller",
  [
    newRule("get", "list", "watch", "update", "delete", "patch").groups(legacyGroup).resources("nodes").rule(),
    newRule("patch", "update").groups(legacyGroup).resources("nodes/status").rule(),
    // used for pod deletion
    newRule("patch", "update").groups(legacyGroup).resources("pods/status").rule(),
    newRule("list", "watch", "get", "delete").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ],
];

export const podGarbageCollector: ControllerRules = [
  "pod-garbage-collector",
  [
    newRule("list", "watch", "delete").groups(legacyGroup).resources("pods").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("nodes").rule(),
    newRule("patch").groups(legacyGroup).resources("pods/status").rule(),
  ],
];

export const resourceQuotaController: ControllerRules = [
  "resourcequota-controller",
  [
    // quota can count quota on anything for reconciliation, so it needs full viewing powers
    newRule("list", "watch").groups("*").resources("*").rule(),
    newRule("update").groups(legacyGroup).resources("resourcequotas/status").rule(),
    eventsRule(),
  ],
];

export const routeController: ControllerRules = [
  "route-controller",
  [
    newRule("list", "watch").groups(legacyGroup).resources("nodes").rule(),
    newRule("patch").groups(legacyGroup).resources("nodes/status").rule(),
    eventsRule(),
  ],
];

export const serviceAccountController: ControllerRules = [
  "service-account-controller",
  [newRule("create").groups(legacyGroup).resources("serviceaccounts").rule(), eventsRule()],
];

export const serviceController: ControllerRules = [
  "service-controller",
  [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services").rule(),
    newRule("patch", "update").groups(legacyGroup).resources("services/status").rule(),
    newRule("list", "watch").groups(legacyGroup).resources("nodes").rule(),
    eventsRule(),
  ],
];

export const serviceCIDRsController: ControllerRules = [
  "service-cidrs-controller",
  [
    newRule("get", "list", "watch", "patch", "update").groups(networkingGroup).resources("servicecidrs").rule(),
    newRule("patch", "update").groups(networkingGroup).resources("servicecidrs/finalizers").rule(),
    newRule("patch", "update").groups(networkingGroup).resources("servicecidrs/status").rule(),
    newRule("get", "list", "watch").groups(networkingGroup).resources("ipaddresses").rule(),
    eventsRule(),
  ],
];

export const ttlController: ControllerRules = [
  "ttl-controller",
  [newRule("update", "patch", "list", "watch").groups(legacyGroup).resources("nodes").rule(), eventsRule()],
];

export const certificateController: ControllerRules = [
  "certificate-controller",
  [
    newRule("get", "list", "watch", "delete").groups(certificatesGroup).resources("certificatesigningrequests").rule(),
    newRule("update")
      .groups(certificatesGroup)
      .resources("certificatesigningrequests/status", "certificatesigningrequests/approval")
      .rule(),
    newRule("approve").groups(certificatesGroup).resources("signers").names("kubernetes.io/kube-apiserver-client-kubelet").rule(),
    newRule("sign")
      .groups(certificatesGroup)
      .resources("signers")
      .names(
        "kubernetes.io/legacy-unknown",
        "kubernetes.io/kube-apiserver-client",
        "kubernetes.io/kube-apiserver-client-kubelet",
        "kubernetes.io/kubelet-serving",
      )
      .rule(),
    newRule("create").groups(authorizationGroup).resources("subjectaccessreviews").rule(),
    eventsRule(),
  ],
];

export const rootCACertPublisher: ControllerRules = [
  "root-ca-cert-publisher",
  [newRule("create", "update").groups(legacyGroup).resources("configmaps").rule(), eventsRule()],
];

export const kubeAPIServerServingClusterTrustBundlePublisher: ControllerRules = [
  "kube-apiserver-serving-clustertrustbundle-publisher",
  [
    newRule("attest").groups(certificatesGroup).resources("signers").names("kubernetes.io/kube-apiserver-serving").rule(),
    newRule("create", "update", "delete", "list", "watch").groups(certificatesGroup).resources("clustertrustbundles").rule(),
    eventsRule(),
  ],
];

export const validatingAdmissionPolicyStatusController: ControllerRules = [
  "validatingadmissionpolicy-status-controller",
  [
    newRule("get", "list", "watch").groups(admissionRegistrationGroup).resources("validatingadmissionpolicies").rule(),
    newRule("get", "patch", "update").groups(admissionRegistrationGroup).resources("validatingadmissionpolicies/status").rule(),
    eventsRule(),
  ],
];

export const storageVersionGarbageCollector: ControllerRules = [
  "storage-version-garbage-collector",
  [
    newRule("get", "list", "watch").groups(coordinationGroup).resources("leases").rule(),
    newRule("get", "list", "watch", "patch", "update", "delete").groups(internalAPIServerGroup).resources("storageversions").rule(),
    newRule("get", "patch", "update").groups(internalAPIServerGroup).resources("storageversions/status").rule(),
  ],
];

export const legacyServiceAccountTokenCleaner: ControllerRules = [
  "legacy-service-account-token-cleaner",
  [
    newRule("get").groups(legacyGroup).resources("configmaps").names("kube-apiserver-legacy-service-account-token-tracking").rule(),
    newRule("patch", "delete").groups(legacyGroup).resources("secrets").rule(),
  ],
];

export const storageVersionMigratorController: ControllerRules = [
  "storage-version-migrator-controller",
  [
    // need list to get current RV for any resource, patch for SSA of any resource, and create because SSA
    // of a deleted resource is a create request (which fails with a conflict as the UID is set)
    newRule("list", "create", "patch").groups("*").resources("*").rule(),
    newRule("get").groups("apiextensions.k8s.io").resources("customresourcedefinitions").rule(),
    newRule("patch").groups("apiextensions.k8s.io").resources("customresourcedefinitions/status").rule(),
    newRule("update").groups(storageVersionMigrationGroup).resources("storageversionmigrations/status").rule(),
  ],
];
